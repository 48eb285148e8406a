/** Dates and datelines as wires write them in captions. */

export interface Dateline {
  /** As written, without the trailing colon: "LONDON, ENGLAND - MAY 30". */
  text: string;
  city: string | null;
  state: string | null;
  country: string | null;
}

export interface CaptionDate {
  iso: string;
  index: number;
  end: number;
}

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};
const MONTH =
  '(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sept?(?:ember)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?';
const MONTH_UPPER =
  '(JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEPT?(?:EMBER)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)\\.?';

const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD ' +
    'TN TX UT VT VA WA WV WI WY DC ALABAMA ALASKA ARIZONA ARKANSAS CALIFORNIA COLORADO CONNECTICUT DELAWARE FLORIDA GEORGIA ' +
    'HAWAII IDAHO ILLINOIS INDIANA IOWA KANSAS KENTUCKY LOUISIANA MAINE MARYLAND MASSACHUSETTS MICHIGAN MINNESOTA MISSISSIPPI ' +
    'MISSOURI MONTANA NEBRASKA NEVADA OHIO OKLAHOMA OREGON PENNSYLVANIA TENNESSEE TEXAS UTAH VERMONT VIRGINIA WASHINGTON ' +
    'WISCONSIN WYOMING'
  )
    .split(' ')
    .concat([
      'NEW HAMPSHIRE',
      'NEW JERSEY',
      'NEW MEXICO',
      'NEW YORK',
      'NORTH CAROLINA',
      'NORTH DAKOTA',
      'RHODE ISLAND',
      'SOUTH CAROLINA',
      'SOUTH DAKOTA',
      'WEST VIRGINIA',
    ]),
);

function isoDate(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1800 || y > 2200) return null;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1 || dt.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const monthOf = (s: string) => MONTHS[s.toLowerCase().replace(/\.$/, '')];

/**
 * Every full date (day, month and year) in the text, in order: "May 30, 2012",
 * "Friday, June 22, 2012", "Aug. 30, 2003", "30 May 2012", "27/2/2012", "24-06-2014", "2012-05-30".
 * Numeric dates are read day first (British and wire style) unless the second number cannot be a month.
 */
export function findDates(text: string): CaptionDate[] {
  const out: CaptionDate[] = [];
  const push = (iso: string | null, index: number, len: number) => {
    if (iso && !out.some((d) => index < d.end && d.index < index + len)) out.push({ iso, index, end: index + len });
  };
  for (const m of text.matchAll(new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'))) {
    push(isoDate(+m[3], monthOf(m[1]), +m[2]), m.index, m[0].length);
  }
  for (const m of text.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH},?\\s+(\\d{4})\\b`, 'gi'))) {
    push(isoDate(+m[3], monthOf(m[2]), +m[1]), m.index, m[0].length);
  }
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g))
    push(isoDate(+m[1], +m[2], +m[3]), m.index, m[0].length);
  for (const m of text.matchAll(/\b(\d{1,2})([/.-])(\d{1,2})\2(\d{4})\b/g)) {
    const a = +m[1];
    const b = +m[3];
    const [d, mo] = b > 12 && a <= 12 ? [b, a] : [a, b];
    push(isoDate(+m[4], mo, d), m.index, m[0].length);
  }
  return out.sort((x, y) => x.index - y.index);
}

/** Words before a date that make it the date the picture was taken. */
const PHOTO_DATE_BEFORE =
  /(?:file\s+(?:photo|picture|pic|image)\s+(?:taken\s+)?(?:on\s+|dated\s+)?|picture\s+(?:date|taken)\s*:?\s*|photo\s+(?:date|taken)\s*:?\s*(?:on\s+)?|taken\s+on\s+|in\s+this\s+(?:file\s+)?(?:photo\s+)?(?:taken\s+)?(?:on\s+)?)(?:\w+day,?\s+)?$/i;
/** "In this Sept. 5, 2019, file photo": AP puts the words after the date. */
const PHOTO_DATE_AFTER = /^,?\s+(?:file\s+)?(?:photo|picture)\b/i;
/** PA's "Issue date:" is when the picture was sent again, not when it was taken. */
const ISSUE_DATE_BEFORE = /issue\s+date\s*:?\s*(?:\w+day,?\s+)?$/i;

function titlePlace(s: string): string {
  const t = s.trim();
  // USA, UK, U.S., CA: abbreviations stay as sent.
  if (t.length <= 3 || /\./.test(t)) return t;
  if (t !== t.toUpperCase()) return t;
  return t.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

function placeParts(place: string): Pick<Dateline, 'city' | 'state' | 'country'> {
  const parts = place.split(/\s*,\s*/).filter(Boolean);
  if (parts.length === 1) return { city: titlePlace(parts[0]), state: null, country: null };
  if (parts.length === 2) {
    const second = parts[1].toUpperCase().replace(/\./g, '');
    return US_STATES.has(second)
      ? { city: titlePlace(parts[0]), state: titlePlace(parts[1]), country: null }
      : { city: titlePlace(parts[0]), state: null, country: titlePlace(parts[1]) };
  }
  return { city: titlePlace(parts[0]), state: titlePlace(parts[1]), country: titlePlace(parts.slice(2).join(', ')) };
}

interface DatelineHit {
  dateline: Dateline;
  month: number | null;
  day: number | null;
  year: number | null;
  iso: string | null;
}

// Bounded: a place word of at most 30 characters, a place of at most 6 words, at most 3 spaces
// between them. Unbounded, "AB. AB. AB. ..." made every capital start a place running to the end
// of the caption, quadratic (test/unit/core/credits/linearity.test.ts).
const PLACE_WORD = "\\p{Lu}[\\p{Lu}.'-]{0,30}";
const PLACE = `${PLACE_WORD}(?:\\s{1,3}${PLACE_WORD}){0,5}`;

/** Getty's "LONDON, ENGLAND - MAY 30:" anywhere, or Corbis's "01 Apr 2015, Akron, Ohio, USA ---" at the start. */
function findDateline(text: string): DatelineHit | null {
  const getty = new RegExp(
    `(?:^|(?<=[\\s.:;)]))(${PLACE}(?:\\s{0,3},\\s{0,3}${PLACE}){0,2})\\s{1,3}[-–—]{1,3}\\s{1,3}${MONTH_UPPER}\\s{1,3}(\\d{1,2})(?:,\\s*(\\d{4}))?\\s*:`,
    'u',
  ).exec(text);
  if (getty) {
    const [, place, mon, day, year] = getty;
    const month = monthOf(mon);
    const full = getty[0].replace(/\s*:$/, '').trim();
    return {
      dateline: { text: full, ...placeParts(place) },
      month,
      day: +day,
      year: year ? +year : null,
      iso: year ? isoDate(+year, month, +day) : null,
    };
  }
  const corbis = new RegExp(`^\\s*((\\d{1,2})\\s+${MONTH}\\s+(\\d{4})\\s*,\\s*([^-–—]+?))\\s*-{2,}`, 'i').exec(text);
  if (corbis) {
    const [, whole, day, mon, year, place] = corbis;
    const month = monthOf(mon);
    return {
      dateline: { text: whole.trim(), ...placeParts(place) },
      month,
      day: +day,
      year: +year,
      iso: isoDate(+year, month, +day),
    };
  }
  return null;
}

/**
 * The date the picture was taken and the dateline, as far as the caption says. A date the
 * caption marks as the picture's ("File photo dated 27/2/2012", "a file photo taken on
 * February 27, 2012", "Picture date:") wins; then the dateline (its year taken from a date in
 * the caption with the same day, else from the caption's first full date, else unknown); then
 * the first full date that is not PA's "Issue date".
 */
export function readCaptionDate(text: string): { dateCreated: string | null; dateline: Dateline | null } {
  const dates = findDates(text).filter((d) => !ISSUE_DATE_BEFORE.test(text.slice(Math.max(0, d.index - 40), d.index)));
  const hit = findDateline(text);

  const marked = dates.find(
    (d) =>
      PHOTO_DATE_BEFORE.test(text.slice(Math.max(0, d.index - 60), d.index)) ||
      PHOTO_DATE_AFTER.test(text.slice(d.end, d.end + 20)),
  );
  if (marked) return { dateCreated: marked.iso, dateline: hit?.dateline ?? null };

  if (hit) {
    if (hit.iso) return { dateCreated: hit.iso, dateline: hit.dateline };
    let iso: string | null = null;
    if (hit.month && hit.day) {
      const sameDay = dates.find((d) => +d.iso.slice(5, 7) === hit.month && +d.iso.slice(8, 10) === hit.day);
      const year = sameDay ? +sameDay.iso.slice(0, 4) : dates.length ? +dates[0].iso.slice(0, 4) : null;
      iso = year ? isoDate(year, hit.month, hit.day) : null;
    }
    return { dateCreated: iso, dateline: hit.dateline };
  }
  return { dateCreated: dates[0]?.iso ?? null, dateline: null };
}
