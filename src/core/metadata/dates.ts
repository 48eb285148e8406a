/**
 * Dates as ISO 8601, as precise as the source gives them. IIM splits a date (2:55, CCYYMMDD,
 * "00" for an unknown month or day) from a time (2:60, HHMMSS±HHMM); XMP already uses ISO
 * 8601 but writers bend it (a space before the offset as Getty does, "+0000", a space for "T").
 */

/** CCYYMMDD -> CCYY-MM-DD (or CCYY-MM / CCYY when the day / month is "00"); undefined if not a date. */
export function iimDateToIso(date: string): string | undefined {
  // ExifTool accepts any non-digits between the parts; so do we.
  const m = /^(\d{4})\D*(\d{2})\D*(\d{2})$/.exec(date);
  if (!m) return undefined;
  const [, y, mo, d] = m;
  if (mo === '00') return y;
  if (Number(mo) > 12) return undefined;
  if (d === '00') return `${y}-${mo}`;
  if (Number(d) > 31) return undefined;
  return `${y}-${mo}-${d}`;
}

export interface IimTime {
  /** HH:MM:SS[.fff][±HH:MM], or undefined when the time itself is not valid. */
  iso?: string;
  /** What was wrong, when something was dropped. */
  problem?: string;
}

/**
 * HHMMSS[.fff][±HHMM] -> HH:MM:SS[.fff][±HH:MM]. Fractions of a second (some writers put
 * "135926.054-0600") are kept. A zone no place uses (over 14 hours, or minutes other than
 * 00, 30 or 45, e.g. "-1057") is dropped with a problem, keeping the local time.
 */
export function readIimTime(time: string): IimTime {
  const m = /^(\d{2}):?(\d{2}):?(\d{2})([.,]\d+)?(?:([+-])(\d{2}):?(\d{2}))?$/.exec(time.trim());
  if (!m) return { problem: 'is not HHMMSS±HHMM' };
  const [, h, mi, s, frac, sign, tzh, tzm] = m;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return { problem: 'is not a time of day' };
  const local = `${h}:${mi}:${s}${frac ? `.${frac.slice(1)}` : ''}`;
  if (!sign) return { iso: local };
  if (Number(tzh) > 14 || !['00', '30', '45'].includes(tzm))
    return { iso: local, problem: `has an impossible time zone ${sign}${tzh}:${tzm}; the time is kept without it` };
  return { iso: `${local}${sign}${tzh}:${tzm}` };
}

/** HHMMSS[.fff][±HHMM] -> HH:MM:SS[.fff][±HH:MM]; undefined if not a time (see readIimTime). */
export function iimTimeToIso(time: string): string | undefined {
  return readIimTime(time).iso;
}

/** A time only makes sense on a full date. */
export function joinIsoDateTime(date: string, time: string | undefined): string {
  return time && /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T${time}` : date;
}

/** Normalize an XMP date to ISO 8601; undefined when it is not a date at all. */
export function xmpDateToIso(value: string): string | undefined {
  const v = value.trim();
  const full = /^(\d{4})[-:](\d{2})[-:](\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(v);
  if (full) {
    const [, y, mo, d, hm, sec, tz] = full;
    let zone = tz ?? '';
    if (/^z$/i.test(zone)) zone = 'Z';
    else if (zone && !zone.includes(':')) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
    return `${y}-${mo}-${d}T${hm}${sec ?? ''}${zone}`;
  }
  const partial = /^(\d{4})(?:[-:](\d{2})(?:[-:](\d{2}))?)?$/.exec(v);
  if (partial) {
    const [, y, mo, d] = partial;
    return [y, mo, d].filter((p) => p !== undefined).join('-');
  }
  return undefined;
}

/** Parse an ISO 8601 date or date-time into IIM 2:55 / 2:60 values (used by the IIM writer). */
export function isoToIimDateTime(iso: string): { date: string; time?: string } | undefined {
  const m =
    /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/i.exec(iso);
  if (!m) return undefined;
  const [, y, mo = '00', d = '00', h, mi, s = '00', tz] = m;
  const date = `${y}${mo}${d}`;
  if (h === undefined) return { date };
  let zone = '';
  if (tz) zone = /^z$/i.test(tz) ? '+0000' : tz.replace(':', '');
  return { date, time: `${h}${mi}${s}${zone}` };
}

/** The earliest year a photo's date can name: a camera with its clock reset says 0000 or 1601. */
export const EARLIEST_PHOTO_YEAR = 1900;

/**
 * Why the parts of an EXIF date-time cannot be a photo's date ("is zeroed", "is before 1900",
 * "is not a calendar date"), or undefined when they can.
 */
export function impossibleDateReason(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
): string | undefined {
  if (y === 0 && mo === 0 && d === 0) return 'is zeroed';
  if (y < EARLIEST_PHOTO_YEAR) return `is before ${EARLIEST_PHOTO_YEAR}`;
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate() || h > 23 || mi > 59 || s > 60)
    return 'is not a calendar date';
  return undefined;
}

const MS_14H = 14 * 3_600_000;
const MS_12H = 12 * 3_600_000;

/** The first (or last) instant an ISO date or date-time can be, whatever zone a value without one was in. */
function instantBounds(iso: string): { earliest: number; latest: number } | undefined {
  const m =
    /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/.exec(iso);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  if (zone !== undefined) {
    const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s ?? '00'}${frac ? `.${frac.slice(0, 3)}` : ''}${zone}`);
    return Number.isNaN(t) ? undefined : { earliest: t, latest: t };
  }
  const start = Date.UTC(
    Number(y),
    mo ? Number(mo) - 1 : 0,
    d ? Number(d) : 1,
    h ? Number(h) : 0,
    mi ? Number(mi) : 0,
    s ? Number(s) : 0,
  );
  const end =
    h !== undefined
      ? start + 1000
      : d
        ? Date.UTC(Number(y), Number(mo) - 1, Number(d) + 1)
        : mo
          ? Date.UTC(Number(y), Number(mo), 1)
          : Date.UTC(Number(y) + 1, 0, 1);
  // A local time is at most 14 hours ahead of UTC (Kiribati) and 12 behind.
  return { earliest: start - MS_14H, latest: end + MS_12H };
}

/**
 * Why an EXIF DateTimeOriginal (ISO, from exifFields.ts) cannot be the shutter time of a photo
 * sent at `transmittedAt`: "is after the transmission (...)" only when it is later in every
 * time zone either may be in; undefined otherwise (or when either is not a date).
 */
export function exifDateProblem(exifIso: string, transmittedAt: string): string | undefined {
  const shot = instantBounds(exifIso);
  const sent = instantBounds(transmittedAt);
  if (!shot || !sent) return undefined;
  return shot.earliest > sent.latest ? `is after the transmission (${transmittedAt})` : undefined;
}
