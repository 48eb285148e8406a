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

/** HHMMSS[±HHMM] -> HH:MM:SS[±HH:MM]; undefined if not a time. */
export function iimTimeToIso(time: string): string | undefined {
  const m = /^(\d{2}):?(\d{2}):?(\d{2})(?:([+-]\d{2}):?(\d{2}))?$/.exec(time);
  if (!m) return undefined;
  const [, h, mi, s, tzh, tzm] = m;
  return `${h}:${mi}:${s}${tzh ? `${tzh}:${tzm}` : ''}`;
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
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?)?)?$/i.exec(iso);
  if (!m) return undefined;
  const [, y, mo = '00', d = '00', h, mi, s = '00', tz] = m;
  const date = `${y}${mo}${d}`;
  if (h === undefined) return { date };
  let zone = '';
  if (tz) zone = /^z$/i.test(tz) ? '+0000' : tz.replace(':', '');
  return { date, time: `${h}${mi}${s}${zone}` };
}
