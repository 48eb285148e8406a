import { fold } from '../rights/tokens';
import type { NameTrie } from '../rights/phraseMatcher';
import { fixedZone, wallDate, zonedToEpoch, type Zone } from './zones';

/**
 * Dates and times as wires write them after "EMBARGOED UNTIL", "HOLD FOR RELEASE", "NO USE AFTER":
 *   0001 GMT SATURDAY MARCH 9, 2024        00:01 GMT, 10 MARCH 2024        12:01 A.M. EDT WEDNESDAY, MAY 1, 2024
 *   5 P.M. ET THURSDAY                     2230 FRIDAY MARCH 8 (PA: UK time)  10.03.2024, 00:01 Uhr   10. März 2024 12.00 Uhr MEZ
 *   2024-03-10T00:01:00Z                   1500 GMT/1000 ET (the first)       midnight ET Wednesday    Tuesday 12 March 2024 at 00:01 GMT
 *   00h01 (heure de Paris) le 10 mars      NOON EST MONDAY                    20240310T000100+0100     10/03/2024 00:01 CET
 * Read by a hand-written scanner over at most WINDOW characters after the trigger, so its cost does
 * not depend on the text's length. chrono-node 2.10.3 was tried first: it read "0001 GMT" and "2230"
 * as noon, "10.03.2024" as October 3 and gave nothing for "1500 GMT/1000 ET" (docs/RIGHTS.md).
 */

export const WINDOW = 120;

type DTok =
  | { t: 'num'; v: string; s: number; e: number; space: boolean }
  | { t: 'word'; v: string; s: number; e: number; space: boolean }
  | { t: 'sep'; v: string; s: number; e: number; space: boolean };

const MONTHS: Record<string, number> = {
  JAN: 1,
  JANUARY: 1,
  JANUAR: 1,
  JANVIER: 1,
  ENERO: 1,
  JAENNER: 1,
  JANNER: 1,
  GENNAIO: 1,
  JANEIRO: 1,
  FEB: 2,
  FEBRUARY: 2,
  FEBRUAR: 2,
  FEVRIER: 2,
  FEBRERO: 2,
  FEV: 2,
  FEBBRAIO: 2,
  FEVEREIRO: 2,
  MAR: 3,
  MARCH: 3,
  MARZ: 3,
  MARS: 3,
  MARZO: 3,
  MRZ: 3,
  MARCO: 3,
  APR: 4,
  APRIL: 4,
  AVRIL: 4,
  ABRIL: 4,
  AVR: 4,
  APRILE: 4,
  MAY: 5,
  MAI: 5,
  MAYO: 5,
  MAGGIO: 5,
  MAIO: 5,
  JUN: 6,
  JUNE: 6,
  JUNI: 6,
  JUIN: 6,
  JUNIO: 6,
  GIUGNO: 6,
  JUNHO: 6,
  JUL: 7,
  JULY: 7,
  JULI: 7,
  JUILLET: 7,
  JULIO: 7,
  JUIL: 7,
  LUGLIO: 7,
  JULHO: 7,
  AUG: 8,
  AUGUST: 8,
  AOUT: 8,
  AGOSTO: 8,
  SEP: 9,
  SEPT: 9,
  SEPTEMBER: 9,
  SEPTEMBRE: 9,
  SEPTIEMBRE: 9,
  SETTEMBRE: 9,
  SETEMBRO: 9,
  OCT: 10,
  OCTOBER: 10,
  OKTOBER: 10,
  OKT: 10,
  OCTOBRE: 10,
  OCTUBRE: 10,
  OTTOBRE: 10,
  OUTUBRO: 10,
  NOV: 11,
  NOVEMBER: 11,
  NOVEMBRE: 11,
  NOVIEMBRE: 11,
  NOVEMBRO: 11,
  DEC: 12,
  DECEMBER: 12,
  DEZEMBER: 12,
  DEZ: 12,
  DECEMBRE: 12,
  DICIEMBRE: 12,
  DICEMBRE: 12,
  DEZEMBRO: 12,
};
const WEEKDAYS: Record<string, number> = {
  SUN: 0,
  SUNDAY: 0,
  SONNTAG: 0,
  DIMANCHE: 0,
  DOMINGO: 0,
  DOMENICA: 0,
  MON: 1,
  MONDAY: 1,
  MONTAG: 1,
  LUNDI: 1,
  LUNES: 1,
  LUNEDI: 1,
  TUE: 2,
  TUES: 2,
  TUESDAY: 2,
  DIENSTAG: 2,
  MARDI: 2,
  MARTES: 2,
  MARTEDI: 2,
  WED: 3,
  WEDNESDAY: 3,
  MITTWOCH: 3,
  MERCREDI: 3,
  MIERCOLES: 3,
  MERCOLEDI: 3,
  THU: 4,
  THUR: 4,
  THURS: 4,
  THURSDAY: 4,
  DONNERSTAG: 4,
  JEUDI: 4,
  JUEVES: 4,
  GIOVEDI: 4,
  FRI: 5,
  FRIDAY: 5,
  FREITAG: 5,
  VENDREDI: 5,
  VIERNES: 5,
  VENERDI: 5,
  SAT: 6,
  SATURDAY: 6,
  SAMSTAG: 6,
  SONNABEND: 6,
  SAMEDI: 6,
  SABADO: 6,
  SABATO: 6,
};
/** Words that may sit between the parts of a date and time. */
const FILLERS = new Set([
  'ON',
  'AT',
  'OF',
  'THE',
  'BY',
  'UNTIL',
  'TILL',
  'TO',
  'UM',
  'DEN',
  'DEM',
  'LE',
  'A',
  'EL',
  'DE',
  'DU',
  'LAS',
  'LA',
  'HRS',
  'HR',
  'HOURS',
  'UHR',
  'H',
  'HEURES',
  'HORAS',
  'O',
  'CLOCK',
  'LOCAL',
  'TIME',
  'ET',
  'Y',
  'AU',
  'AUX',
  'AL',
  'DEL',
  'BIS',
  'HASTA',
  'JUSQU',
  'JUSQUE',
  'VOR',
  'AM',
  'ALLE',
  'ORE',
  'FINO',
  'ATE',
  'AS',
  'DAS',
  'DO',
  'DA',
]);
/** Words between a day, its month and its year in Spanish and Portuguese ("9 DE MARZO DE 2024"). */
const DAY_MONTH_LINKS = new Set(['DE', 'DEL']);
const ORDINALS = new Set(['ST', 'ND', 'RD', 'TH', 'ER', 'E', 'EME', 'O', 'A']);
/** Zones whose writers put the month first in 3/9/2024 (AP, CP, UPI): US and Canadian names and offsets. */
const MONTH_FIRST_ZONES =
  /^(?:America\/(?:New_York|Chicago|Denver|Los_Angeles|Toronto|Vancouver|Phoenix|Anchorage|Halifax)|(?:EST|EDT|CST|CDT|MST|MDT|PST|PDT|AKST|AKDT|HST|ET|CT|MT|PT) )/;
const NOON = new Set(['NOON', 'MIDDAY', 'MITTAG', 'MIDI', 'MEDIODIA']);
const MIDNIGHT = new Set(['MIDNIGHT', 'MITTERNACHT', 'MINUIT', 'MEDIANOCHE']);

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isLetter(ch: string): boolean {
  return /^\p{L}$/u.test(ch);
}

/** Digits, letter runs and single separators; "A.M." and "p.m." become AM/PM. */
function dateTokens(s: string): DTok[] {
  const out: DTok[] = [];
  let i = 0;
  let space = false;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 32 || c === 9 || c === 0xa0 || c === 10 || c === 13) {
      space = true;
      i++;
      continue;
    }
    if (isDigit(c)) {
      const st = i;
      while (i < s.length && isDigit(s.charCodeAt(i)) && i - st < 8) i++;
      out.push({ t: 'num', v: s.slice(st, i), s: st, e: i, space });
    } else if (isLetter(s[i])) {
      const st = i;
      while (i < s.length && isLetter(s[i]) && i - st < 24) i++;
      let v = fold(s.slice(st, i));
      // "A.M.", "p.m", "a. m."
      if ((v === 'A' || v === 'P') && /^\.\s?[mM]\.?/.test(s.slice(i, i + 4))) {
        const m = /^\.\s?[mM]\.?/.exec(s.slice(i, i + 4))!;
        i += m[0].length;
        v = `${v}M`;
      }
      out.push({ t: 'word', v, s: st, e: i, space });
    } else {
      out.push({ t: 'sep', v: s[i], s: i, e: i + 1, space });
      i++;
    }
    space = false;
  }
  return out;
}

interface Parts {
  y?: number;
  m?: number;
  d?: number;
  wd?: number;
  h?: number;
  mi?: number;
  sec?: number;
  ampm?: 'AM' | 'PM';
  midnight?: boolean;
  zone?: Zone;
  /** "March 2025": a month and a year without a day. */
  monthOnly?: boolean;
  /** Both readings of "03/09/2024" when the order is not certain. */
  altDayMonth?: { m: number; d: number };
  /**
   * Weeks after the weekday's next occurrence: [1] for "SATURDAY AFTER NEXT" and "SATURDAY WEEK",
   * [0, 1] for "NEXT SATURDAY" and "SATURDAY NEXT WEEK" (said either way: `prefer` picks).
   */
  weeks?: number[];
  /** The modifier words as written, for `assumed`. */
  weekWords?: string;
}

/** The word at token k, or ''. */
const wordAt = (toks: DTok[], k: number): string => (toks[k]?.t === 'word' ? (toks[k] as DTok).v : '');

export interface WireDateOptions {
  /** Zone names ("GMT", "ET", "UK TIME") from the rules. */
  zones: NameTrie<Zone>;
  /** The item's time: gives the year, the week of a weekday, the day of a bare time. */
  reference?: number | null;
  /** For times written without a zone (the agency's). */
  defaultZone?: { zone: Zone; why: string } | null;
  /** Read a date without a time as the end of that day (expiry) rather than its start (embargo). */
  dateOnlyIsEndOfDay: boolean;
  /** Of two possible readings, keep the later (embargo: never release early) or the earlier (expiry). */
  prefer: 'later' | 'earlier';
}

export interface WireDate {
  /** Epoch milliseconds; null when a date was written but cannot be placed (no year and no reference). */
  at: number | null;
  zone: string | null;
  assumed: string[];
  /** Characters of the window read. */
  length: number;
}

function zoneAt(zones: NameTrie<Zone>, toks: DTok[], i: number): { zone: Zone; next: number } | null {
  // The trie is keyed by rights tokens; here words are looked up one by one.
  let best: { zone: Zone; next: number } | null = null;
  const words: Array<{ norm: string; breakBefore: boolean; start: number; end: number; sep: string; upper: boolean }> =
    [];
  for (let j = i; j < toks.length && j - i < 4; j++) {
    const t = toks[j];
    if (t.t !== 'word') break;
    words.push({ norm: t.v, breakBefore: false, start: t.s, end: t.e, sep: '', upper: true });
  }
  const hit = zones.longestAt(words, 0);
  if (hit) best = { zone: hit.value, next: i + hit.to };
  return best;
}

/** "1000 ET", "5 P.M. EST", "17:00 GMT" starting at `i`: the index after it, or -1. */
function alternateTime(zones: NameTrie<Zone>, toks: DTok[], i: number): number {
  let j = i;
  if (toks[j]?.t !== 'num' || toks[j].v.length > 4) return -1;
  j++;
  if (toks[j]?.t === 'sep' && (toks[j].v === ':' || toks[j].v === '.') && toks[j + 1]?.t === 'num') j += 2;
  if (toks[j]?.t === 'word' && (toks[j].v === 'AM' || toks[j].v === 'PM')) j++;
  const z = zoneAt(zones, toks, j);
  return z ? z.next : -1;
}

/** "+0100", "-05:00", "+1" right after a zone or a time. */
function offsetAt(toks: DTok[], i: number): { minutes: number; next: number } | null {
  const sign = toks[i];
  const num = toks[i + 1];
  if (
    !sign ||
    sign.t !== 'sep' ||
    (sign.v !== '+' && sign.v !== '-' && sign.v !== '\u2212') ||
    !num ||
    num.t !== 'num' ||
    num.space
  )
    return null;
  let h: number;
  let m = 0;
  let next = i + 2;
  if (num.v.length === 4) {
    h = Number(num.v.slice(0, 2));
    m = Number(num.v.slice(2));
  } else if (num.v.length <= 2) {
    h = Number(num.v);
    const colon = toks[i + 2];
    const mins = toks[i + 3];
    if (colon && colon.t === 'sep' && colon.v === ':' && mins && mins.t === 'num' && mins.v.length === 2) {
      m = Number(mins.v);
      next = i + 4;
    }
  } else return null;
  if (h > 14 || m > 59) return null;
  return { minutes: (sign.v === '+' ? 1 : -1) * (h * 60 + m), next };
}

function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1 || d > 31) return false;
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

function fullYear(v: string): number {
  const n = Number(v);
  return v.length === 2 ? 2000 + n : n;
}

/**
 * Read the date and time at the start of `window` (text after a trigger). Returns null when
 * nothing date-like is there.
 */
export function readWireDate(window: string, opts: WireDateOptions): WireDate | null {
  const toks = dateTokens(window.slice(0, WINDOW));
  const p: Parts = {};
  let lastEnd = 0;
  let found = false;
  let i = 0;
  const take = (next: number) => {
    lastEnd = toks[next - 1].e;
    found = true;
    i = next;
  };
  const timeSet = () => p.h !== undefined || p.midnight;
  let guard = 0;
  while (i < toks.length && guard++ < 64) {
    const tk = toks[i];
    const n1 = toks[i + 1];
    const n2 = toks[i + 2];
    const n3 = toks[i + 3];
    const n4 = toks[i + 4];
    if (tk.t === 'sep') {
      if (tk.v === ';' || tk.v === '\n') break;
      if (
        (tk.v === '/' || tk.v === '(' || tk.v === '[') &&
        timeSet() &&
        (p.zone || p.y !== undefined || p.wd !== undefined)
      ) {
        // "1500 GMT/1000 ET", "1 P.M. ET (1700 GMT)": the same time in another zone; the first is kept.
        const alt = p.zone ? alternateTime(opts.zones, toks, i + 1) : -1;
        if (alt > 0) {
          i = alt;
          if (toks[i]?.t === 'sep' && (toks[i].v === ')' || toks[i].v === ']')) i++;
          continue;
        }
        // "(heure de Paris)", "(GMT)": a zone in brackets belongs to the time before it
        let k = i + 1;
        while (toks[k]?.t === 'word' && FILLERS.has((toks[k] as DTok).v) && k - i < 4) k++;
        if (tk.v === '/' || p.zone || !zoneAt(opts.zones, toks, k)) break;
        i = k;
        continue;
      }
      if ((tk.v === '+' || tk.v === '-' || tk.v === '\u2212') && (timeSet() || p.zone) && !p.zone?.iana) {
        const off = offsetAt(toks, i);
        if (off) {
          p.zone = fixedZone((p.zone?.offsetMinutes ?? 0) + off.minutes);
          take(off.next);
          continue;
        }
      }
      i++;
      continue;
    }
    if (tk.t === 'word') {
      const v = tk.v;
      if ((v === 'AM' || v === 'PM') && p.h !== undefined && p.ampm === undefined && p.h <= 12) {
        p.ampm = v;
        take(i + 1);
        continue;
      }
      if (v === 'T' && p.d !== undefined && n1?.t === 'num' && !n1.space && !tk.space) {
        i++;
        continue;
      }
      if ((v === 'NEXT' || v === 'THIS' || v === 'COMING') && wordAt(toks, i + 1) in WEEKDAYS && p.wd === undefined) {
        // "NEXT THURSDAY": this week's or next week's, said either way; "THIS/COMING THURSDAY": the next one.
        if (v === 'NEXT') {
          p.weeks = [0, 1];
          p.weekWords = 'NEXT';
        }
        i++;
        continue;
      }
      if (v in WEEKDAYS && p.wd === undefined) {
        p.wd = WEEKDAYS[v];
        const w1 = wordAt(toks, i + 1);
        const w2 = wordAt(toks, i + 2);
        let end = i + 1;
        if (w1 === 'AFTER' && w2 === 'NEXT') {
          p.weeks = [1];
          p.weekWords = 'AFTER NEXT';
          end = i + 3;
        } else if (w1 === 'NEXT' && w2 === 'WEEK') {
          p.weeks = [0, 1];
          p.weekWords = 'NEXT WEEK';
          end = i + 3;
        } else if (w1 === 'WEEK') {
          p.weeks = [1];
          p.weekWords = 'WEEK';
          end = i + 2;
        }
        take(end);
        continue;
      }
      if (v in MONTHS && p.m === undefined) {
        p.m = MONTHS[v];
        let next = i + 1;
        if (n1?.t === 'sep' && n1.v === '.') next++; // "Sept."
        // "MARCH 9", "March 9th" (not "March 10:30", a time)
        const dn = toks[next];
        const after = toks[next + 1];
        if (
          p.d === undefined &&
          dn?.t === 'num' &&
          dn.v.length <= 2 &&
          Number(dn.v) >= 1 &&
          Number(dn.v) <= 31 &&
          !(after?.t === 'sep' && after.v === ':')
        ) {
          p.d = Number(dn.v);
          next++;
          if (toks[next]?.t === 'word' && ORDINALS.has((toks[next] as DTok).v) && !toks[next].space) next++;
        }
        // "March 9, 2024", "9 March 2024"
        let sepd = toks[next]?.t === 'sep' && toks[next].v === ',' ? next + 1 : next;
        if (
          toks[sepd]?.t === 'word' &&
          DAY_MONTH_LINKS.has((toks[sepd] as DTok).v) &&
          toks[sepd + 1]?.t === 'num' &&
          toks[sepd + 1].v.length === 4
        )
          sepd++; // "MARZO DE 2024
        const yn = toks[sepd];
        if (
          yn?.t === 'num' &&
          yn.v.length === 4 &&
          Number(yn.v) >= 1900 &&
          Number(yn.v) <= 2100 &&
          !(toks[sepd + 1]?.t === 'sep' && toks[sepd + 1].v === ':')
        ) {
          const asTime =
            Number(yn.v.slice(0, 2)) <= 23 &&
            Number(yn.v.slice(2)) <= 59 &&
            p.h === undefined &&
            toks[sepd + 1]?.t === 'word' &&
            zoneAt(opts.zones, toks, sepd + 1) !== null;
          if (!asTime) {
            p.y = Number(yn.v);
            next = sepd + 1;
            if (p.d === undefined) {
              p.d = 1;
              p.monthOnly = true;
            }
          }
        }
        take(next);
        continue;
      }
      if (NOON.has(v) && !timeSet()) {
        p.h = 12;
        p.mi = 0;
        take(i + 1);
        continue;
      }
      if (MIDNIGHT.has(v) && !timeSet()) {
        p.midnight = true;
        take(i + 1);
        continue;
      }
      if (!p.zone) {
        const z = zoneAt(opts.zones, toks, i);
        if (z) {
          p.zone = z.zone;
          take(z.next);
          continue;
        }
      } else if (zoneAt(opts.zones, toks, i)) break; // a second zone: "1500 GMT/1000 ET"
      if (FILLERS.has(v) || (ORDINALS.has(v) && !tk.space)) {
        i++;
        continue;
      }
      break;
    }
    // A number.
    const v = tk.v;
    const num = Number(v);
    const sepIs = (t: DTok | undefined, chars: string) => t?.t === 'sep' && chars.includes(t.v);
    // ISO extended: 2024-03-10
    if (
      v.length === 4 &&
      sepIs(n1, '-') &&
      n2?.t === 'num' &&
      n2.v.length <= 2 &&
      sepIs(n3, '-') &&
      n4?.t === 'num' &&
      n4.v.length <= 2 &&
      p.y === undefined
    ) {
      p.y = num;
      p.m = Number(n2.v);
      p.d = Number(n4.v);
      take(i + 5);
      continue;
    }
    // ISO basic: 20240310 and 20240310T000100
    if (v.length === 8 && p.y === undefined && num >= 19000101) {
      p.y = Number(v.slice(0, 4));
      p.m = Number(v.slice(4, 6));
      p.d = Number(v.slice(6, 8));
      take(i + 1);
      if (
        toks[i]?.t === 'word' &&
        toks[i].v === 'T' &&
        toks[i + 1]?.t === 'num' &&
        [4, 6].includes(toks[i + 1].v.length)
      ) {
        const tv = toks[i + 1].v;
        p.h = Number(tv.slice(0, 2));
        p.mi = Number(tv.slice(2, 4));
        p.sec = tv.length === 6 ? Number(tv.slice(4, 6)) : 0;
        take(i + 2);
      }
      continue;
    }
    // Dotted or slashed dates: 10.03.2024, 10/03/24, 3/9/2024, 10.03.
    if (
      v.length <= 2 &&
      sepIs(n1, './') &&
      n2?.t === 'num' &&
      n2.v.length <= 2 &&
      !n1!.space &&
      !n2.space &&
      p.m === undefined
    ) {
      const a = num;
      const b = Number(n2.v);
      const hasThird =
        sepIs(n3, (n1 as DTok).v) && n4?.t === 'num' && (n4.v.length === 4 || n4.v.length === 2) && !n4.space;
      const timeLike =
        (n1 as DTok).v === '.' && !hasThird && a <= 24 && n2.v.length === 2 && b <= 59 && !sepIs(n3, '.');
      if (!timeLike) {
        let d = a;
        let m = b;
        if (m > 12 && d <= 12) [d, m] = [m, d];
        if (m >= 1 && m <= 12 && d >= 1 && d <= 31) {
          p.d = d;
          p.m = m;
          // Dots are always day first (10.03.2024); slashes may be either (10/03/2024, 3/10/2024).
          if ((n1 as DTok).v === '/' && a <= 12 && b <= 12 && a !== b) p.altDayMonth = { m: a, d: b };
          let next = i + 3;
          if (hasThird) {
            p.y = fullYear((n4 as DTok).v);
            next = i + 5;
          } else if (sepIs(n3, '.')) next = i + 4; // "10.03."
          take(next);
          continue;
        }
      }
    }
    // Times: 00:01, 12.00, 00h01, 00:01:30
    if (
      v.length <= 2 &&
      num <= 24 &&
      (sepIs(n1, ':.') || (n1?.t === 'word' && n1.v === 'H' && !n1.space)) &&
      n2?.t === 'num' &&
      n2.v.length === 2 &&
      !n2.space &&
      !timeSet()
    ) {
      p.h = num;
      p.mi = Number(n2.v);
      let next = i + 3;
      if (sepIs(n3, ':') && n4?.t === 'num' && n4.v.length === 2) {
        p.sec = Number(n4.v);
        next = i + 5;
      }
      if (toks[next]?.t === 'sep' && toks[next].v === '.' && toks[next + 1]?.t === 'num' && !toks[next + 1].space)
        next += 2; // fractions
      take(next);
      continue;
    }
    // "10. März", "9 March", "March 9" handled above; a day before a month name
    if (v.length <= 2 && num >= 1 && num <= 31 && p.d === undefined) {
      let k = i + 1;
      if (sepIs(toks[k], '.')) k++;
      if (toks[k]?.t === 'word' && ORDINALS.has((toks[k] as DTok).v) && !toks[k].space) k++;
      if (
        toks[k]?.t === 'word' &&
        DAY_MONTH_LINKS.has((toks[k] as DTok).v) &&
        toks[k + 1]?.t === 'word' &&
        (toks[k + 1] as DTok).v in MONTHS
      )
        k++; // "9 DE MARZO"
      if (toks[k]?.t === 'word' && (toks[k] as DTok).v in MONTHS) {
        p.d = num;
        i = k;
        continue;
      }
    }
    // "5 P.M.", "12 noon"
    if (v.length <= 2 && num >= 1 && num <= 12 && n1?.t === 'word' && (n1.v === 'AM' || n1.v === 'PM') && !timeSet()) {
      p.h = num;
      p.mi = 0;
      p.ampm = n1.v as 'AM' | 'PM';
      take(i + 2);
      continue;
    }
    // HHMM (wire style "0001 GMT", "2230 FRIDAY") or a year
    if (v.length === 4) {
      const hh = Number(v.slice(0, 2));
      const mm = Number(v.slice(2));
      const yearish = num >= 1900 && num <= 2100;
      if (
        yearish &&
        p.y === undefined &&
        p.m !== undefined &&
        (timeSet() || !(n1?.t === 'word' && zoneAt(opts.zones, toks, i + 1)))
      ) {
        p.y = num;
        take(i + 1);
        continue;
      }
      if (!timeSet() && hh <= 24 && mm <= 59) {
        p.h = hh;
        p.mi = mm;
        take(i + 1);
        continue;
      }
      if (yearish && p.y === undefined) {
        p.y = num;
        take(i + 1);
        continue;
      }
      break;
    }
    // A bare hour before a zone or "Uhr": "12 Uhr", "5 ET"
    if (
      v.length <= 2 &&
      num <= 24 &&
      !timeSet() &&
      n1?.t === 'word' &&
      (n1.v === 'UHR' || n1.v === 'H' || n1.v === 'HEURES' || zoneAt(opts.zones, toks, i + 1))
    ) {
      p.h = num;
      p.mi = 0;
      take(i + 1);
      continue;
    }
    // A day after a month already read ("MARCH, 9")? or a year after a day-month
    if (v.length === 4 && p.y === undefined) {
      p.y = num;
      take(i + 1);
      continue;
    }
    break;
  }
  if (!found) return null;
  if (window[lastEnd] === ')' && window.lastIndexOf('(', lastEnd) >= 0) lastEnd++;
  const read = compose(p, opts, lastEnd);
  // A time read, then a date in the same clause that could not be ("00:01 GMT ON THE NINTH OF MARCH
  // 2024"): the time alone would name the next such time, perhaps days early. An embargo is held.
  if (
    read &&
    opts.prefer === 'later' &&
    timeSet() &&
    p.m === undefined &&
    p.wd === undefined &&
    unreadDateAfter(
      toks,
      toks.findIndex((t) => t.s >= lastEnd),
    )
  ) {
    return {
      at: null,
      zone: read.zone,
      assumed: [...read.assumed, 'a date written after the time could not be read: held until a person releases it'],
      length: read.length,
    };
  }
  return read;
}

/** Whether the clause from token `i` on (to the next ". ", ";" or line end, at most 12 tokens) names a month, a weekday or a year. */
function unreadDateAfter(toks: DTok[], i: number): boolean {
  if (i < 0) return false;
  for (let k = i; k < toks.length && k - i < 12; k++) {
    const t = toks[k];
    if (t.t === 'sep' && (t.v === ';' || t.v === '\n' || (t.v === '.' && (toks[k + 1]?.space ?? true)))) return false;
    if (t.t === 'word' && (t.v in MONTHS || t.v in WEEKDAYS)) return true;
    if (t.t === 'num' && t.v.length === 4 && Number(t.v) >= 1900 && Number(t.v) <= 2100) return true;
  }
  return false;
}

function compose(p: Parts, opts: WireDateOptions, length: number): WireDate | null {
  const assumed: string[] = [];
  if (p.d === undefined) p.m = undefined; // a month alone ("MAY BE...") is not a date
  const hasDate = p.m !== undefined || p.wd !== undefined;
  const hasTime = p.h !== undefined || p.midnight === true;
  if (!hasDate && !hasTime) return null;

  let zone: Zone;
  if (p.zone) zone = p.zone;
  else if (opts.defaultZone) {
    zone = opts.defaultZone.zone;
    assumed.push(`no time zone written: ${zone.name} (${opts.defaultZone.why})`);
  } else {
    zone = fixedZone(0);
    assumed.push('no time zone written: UTC');
  }

  let h = p.h ?? 0;
  const mi = p.mi ?? 0;
  const sec = p.sec ?? 0;
  if (p.ampm === 'PM' && h < 12) h += 12;
  if (p.ampm === 'AM' && h === 12) h = 0;
  let addDays = 0;
  if (p.midnight) {
    h = 0;
    addDays = hasDate ? 1 : 0;
    if (hasDate) assumed.push('midnight read as the end of the day named');
  } else if (h === 24) {
    h = 0;
    addDays = 1;
  }
  if (h > 23 || mi > 59 || sec > 59) return null;
  if (!hasTime) {
    if (opts.dateOnlyIsEndOfDay) {
      addDays = 1;
      assumed.push('no time written: the end of that day');
    } else assumed.push('no time written: the start of that day');
  }

  if (p.monthOnly && p.m !== undefined && p.y !== undefined) {
    if (opts.dateOnlyIsEndOfDay && !hasTime) {
      p.d = new Date(Date.UTC(p.y, p.m, 0)).getUTCDate();
      assumed.push('no day written: the end of the month');
    } else assumed.push('no day written: the start of the month');
  }
  // "03/09/2024": month first in North American zones (AP, CP), day first elsewhere; else both kept.
  if (p.altDayMonth && p.m !== undefined && p.d !== undefined) {
    const american = MONTH_FIRST_ZONES.test(zone.name);
    if (american) {
      [p.m, p.d] = [p.altDayMonth.m, p.altDayMonth.d];
      assumed.push(`"${p.altDayMonth.m}/${p.altDayMonth.d}" read month first (${zone.name})`);
    } else if (p.zone || opts.defaultZone) assumed.push(`"${p.d}/${p.m}" read day first (${zone.name})`);
    if (american || p.zone || opts.defaultZone) p.altDayMonth = undefined;
  }
  const ref = opts.reference ?? null;
  const candidates: Array<{ y: number; m: number; d: number }> = [];
  if (p.m !== undefined && p.d !== undefined) {
    const orders = [{ m: p.m, d: p.d }, ...(p.altDayMonth ? [p.altDayMonth] : [])];
    if (p.altDayMonth)
      assumed.push(`"${p.d}/${p.m}" or "${p.altDayMonth.d}/${p.altDayMonth.m}": the ${opts.prefer} reading kept`);
    for (const o of orders) {
      if (p.y !== undefined) {
        if (validDate(p.y, o.m, o.d)) candidates.push({ y: p.y, m: o.m, d: o.d });
      } else if (ref !== null) {
        // The year that puts the date nearest the item's own time.
        const ry = wallDate(zone, ref).y;
        let best: { y: number; dist: number } | null = null;
        for (const y of [ry - 1, ry, ry + 1]) {
          if (!validDate(y, o.m, o.d)) continue;
          const dist = Math.abs(Date.UTC(y, o.m - 1, o.d) - ref);
          if (!best || dist < best.dist) best = { y, dist };
        }
        if (best) candidates.push({ y: best.y, m: o.m, d: o.d });
      }
    }
    if (p.y === undefined) {
      if (ref === null)
        return {
          at: null,
          zone: zone.name,
          assumed: [...assumed, 'no year written and no item date to take it from'],
          length,
        };
      assumed.push("year taken from the item's date");
    }
    if (!candidates.length) return null;
    if (p.wd !== undefined && !candidates.some((c) => new Date(Date.UTC(c.y, c.m - 1, c.d)).getUTCDay() === p.wd)) {
      assumed.push('the weekday written does not match the date');
    }
  } else {
    // A weekday or only a time: the next such day or time at or after the item's time.
    if (ref === null)
      return {
        at: null,
        zone: zone.name,
        assumed: [...assumed, 'no date written and no item date to count from'],
        length,
      };
    const today = wallDate(zone, ref);
    for (let k = 0; k < 8; k++) {
      const day = new Date(Date.UTC(today.y, today.m - 1, today.d + k));
      if (p.wd !== undefined && day.getUTCDay() !== p.wd) continue;
      const c = { y: day.getUTCFullYear(), m: day.getUTCMonth() + 1, d: day.getUTCDate() };
      const at = zonedToEpoch(c.y, c.m, c.d + addDays, h, mi, sec, zone);
      if (at >= ref || p.wd !== undefined) {
        for (const w of p.wd !== undefined ? (p.weeks ?? [0]) : [0]) {
          const later = new Date(Date.UTC(c.y, c.m - 1, c.d + 7 * w));
          candidates.push({ y: later.getUTCFullYear(), m: later.getUTCMonth() + 1, d: later.getUTCDate() });
        }
        break;
      }
    }
    assumed.push(p.wd !== undefined ? "the week taken from the item's date" : "the day taken from the item's date");
    if (p.weekWords && (p.weeks?.length ?? 0) > 1) {
      assumed.push(`"${p.weekWords}" can mean this week's or next week's: the ${opts.prefer} of the two is taken`);
    }
  }
  const instants = candidates.map((c) => zonedToEpoch(c.y, c.m, c.d + addDays, h, mi, sec, zone));
  const at = opts.prefer === 'later' ? Math.max(...instants) : Math.min(...instants);
  return { at, zone: zone.name, assumed, length };
}

/**
 * A structured date-time field: ISO 8601 extended or basic ("2024-03-10T00:01:00Z",
 * "20020226T093000-0500"), or an IIM date and time ("20240310" + "000100+0000", exiftool's
 * "2024:03:10" + "00:01:00+00:00"). Returns the parts; the caller decides the zone when none.
 */
export function parseStructuredDateTime(
  date: string,
  time?: string,
): { y: number; m: number; d: number; h: number | null; mi: number; s: number; offset: number | null } | null {
  const dt = date.trim();
  if (dt.length > 40 || (time !== undefined && time.length > 40)) return null;
  const m =
    /^(\d{4})[-:]?(\d{2})[-:]?(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,]\d{1,9})?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(
      dt,
    );
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (!validDate(y, mo, d)) return null;
  let h: number | null = m[4] ? Number(m[4]) : null;
  let mi = m[5] ? Number(m[5]) : 0;
  let s = m[6] ? Number(m[6]) : 0;
  let zone = m[7] ?? null;
  if (time !== undefined && time.trim() && h === null) {
    const t = /^(\d{2}):?(\d{2})(?::?(\d{2}))?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/.exec(time.trim());
    if (!t) return null;
    h = Number(t[1]);
    mi = Number(t[2]);
    s = t[3] ? Number(t[3]) : 0;
    zone = t[4] ?? zone;
  }
  if ((h !== null && h > 24) || mi > 59 || s > 60) return null;
  let offset: number | null = null;
  if (zone) {
    if (zone === 'Z') offset = 0;
    else {
      const z = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
      offset = (z[1] === '-' ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3] ?? 0));
    }
  }
  return { y, m: mo, d, h, mi, s, offset };
}
