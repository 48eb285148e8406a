/**
 * Time zones for embargo and expiry times: a fixed offset ("+01:00") or an IANA zone
 * ("America/New_York", whose offset depends on the date: EST in winter, EDT in summer). IANA
 * offsets come from Node's own ICU (Intl), so no time-zone table ships with photowire.
 */

export interface Zone {
  /** As the rules or the text name it: "+01:00", "America/New_York". */
  name: string;
  /** Fixed offset in minutes east of UTC, when the zone is fixed. */
  offsetMinutes: number | null;
  /** IANA zone, when the offset depends on the date. */
  iana: string | null;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatter(iana: string): Intl.DateTimeFormat | null {
  if (!formatters.has(iana)) {
    try {
      formatters.set(
        iana,
        new Intl.DateTimeFormat('en-US', {
          timeZone: iana,
          hourCycle: 'h23',
          year: 'numeric',
          month: 'numeric',
          day: 'numeric',
          hour: 'numeric',
          minute: 'numeric',
          second: 'numeric',
        }),
      );
    } catch {
      formatters.set(iana, null);
    }
  }
  return formatters.get(iana)!;
}

/** "+01:00", "-0500", "+1", "Z" → minutes east of UTC; null when not an offset. */
export function parseOffset(s: string): number | null {
  const t = s.trim();
  if (t === 'Z' || t === 'z') return 0;
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(t.length <= 6 ? t : '');
  if (!m) return null;
  const h = Number(m[2]);
  const min = m[3] ? Number(m[3]) : 0;
  if (h > 14 || min > 59) return null;
  return (m[1] === '-' ? -1 : 1) * (h * 60 + min);
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const a = Math.abs(minutes);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/** A zone as the rules write it: an offset or an IANA name; null when neither. */
export function zoneFromRule(value: string): Zone | null {
  const off = parseOffset(value);
  if (off !== null) return { name: formatOffset(off), offsetMinutes: off, iana: null };
  if (/^[A-Za-z_]+(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(value.length <= 64 ? value : '') && formatter(value)) {
    return { name: value, offsetMinutes: null, iana: value };
  }
  return null;
}

export function fixedZone(offsetMinutes: number): Zone {
  return { name: formatOffset(offsetMinutes), offsetMinutes, iana: null };
}

/** Offset of an IANA zone at an instant, in minutes east of UTC. */
function ianaOffset(iana: string, epochMs: number): number {
  const f = formatter(iana)!;
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(epochMs))) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
}

/** Offset of a zone at an instant. */
export function offsetAt(zone: Zone, epochMs: number): number {
  return zone.offsetMinutes ?? ianaOffset(zone.iana!, epochMs);
}

/**
 * The instant of a wall-clock time in a zone. A time skipped by a change to summer time is read
 * with the offset before the change (02:30 on the US spring-forward night is 03:30 EDT); a time
 * that occurs twice is read as the first.
 */
export function zonedToEpoch(y: number, mo: number, d: number, h: number, mi: number, s: number, zone: Zone): number {
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  if (zone.offsetMinutes !== null) return wall - zone.offsetMinutes * 60_000;
  const first = wall - ianaOffset(zone.iana!, wall) * 60_000;
  const second = wall - ianaOffset(zone.iana!, first) * 60_000;
  if (first === second) return first;
  // The two guesses straddle a change: keep the one that reads back as the same wall time, else the earlier offset.
  const readsBack = (t: number) => t + ianaOffset(zone.iana!, t) * 60_000 === wall;
  if (readsBack(first) && readsBack(second)) return Math.min(first, second);
  if (readsBack(second)) return second;
  if (readsBack(first)) return first;
  return Math.max(first, second);
}

/** The wall-clock date in a zone at an instant: [year, month, day, weekday 0=Sunday]. */
export function wallDate(
  zone: Zone,
  epochMs: number,
): { y: number; m: number; d: number; wd: number; h: number; mi: number } {
  const t = new Date(epochMs + offsetAt(zone, epochMs) * 60_000);
  return {
    y: t.getUTCFullYear(),
    m: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    wd: t.getUTCDay(),
    h: t.getUTCHours(),
    mi: t.getUTCMinutes(),
  };
}
