import { findBoilerplate } from '../../../../src/core/captions/boilerplate';
import { findCounterAndTitle, findNoise } from '../../../../src/core/captions/captionNoise';
import { cleanCaption } from '../../../../src/core/captions/cleanCaption';
import { findCreditTailStart } from '../../../../src/core/captions/findCreditTail';
import { maskText } from '../../../../src/core/captions/normalizeText';
import { findDates, readCaptionDate } from '../../../../src/core/captions/readDate';
import { compileRules } from '../../../../src/core/credits/compileRules';
import { houseLine } from '../../../../src/core/credits/houseLine';
import { displayCaseName } from '../../../../src/core/credits/nameCase';
import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { bylineCreators, emptyFlags, parseCreditText } from '../../../../src/core/credits/parseCreditText';
import { defaultCreditRules } from '../../../../src/core/credits/rules';
import { readNotice } from '../../../../src/core/kills/readNotice';
import { readRelease } from '../../../../src/core/release/readRelease';
import { readRights } from '../../../../src/core/rights/readRights';
import { cpuMs } from '../../../helpers/cpuTime';

/**
 * Issue 18 item 4: every credit, caption and rights rule that sees input is linear. Each entry
 * point runs over 100,000 characters of each script, and of texts built from the rules' own
 * words, in a time within a fixed ratio of the same length of plain ASCII prose, plus a small
 * constant, and under an absolute ceiling. Before this test, normalizeCredit took 1 s on 10,000
 * "Ł" and 4 s on 20,000 (quadratic: /(\p{L}{3,})\.$/ retried from every letter).
 *
 * Each text is first run at 10,000 characters: a quadratic rule fails there within a second or
 * two instead of running for minutes at 100,000. Each side is timed twice, in turns with the
 * ASCII baseline, and the fastest run kept. Times are CPU times (test/helpers/cpuTime.ts), so
 * another process holding the core does not count.
 * PHOTOWIRE_PRINT_TIMINGS=1 prints the table (docs/RELIABILITY.md, attack 4).
 */

const N = 100_000;
const RATIO = 5; // scripts: a non-Latin word costs a Unicode class lookup more, not a rescan
const ADVERSARIAL_RATIO = 10; // texts made only of rule words try a rule at every word
const SLACK_MS = 60; // a constant: warm-up of a rarely taken path, one garbage collection
const ABSOLUTE_MS = 5_000; // a quadratic rule on 100,000 characters takes minutes

const rules = defaultCreditRules();
const c = compileRules(rules);
const fill = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** Every entry point of the credit, caption, rights, release and kill rules, on one text. */
function runAll(text: string): number {
  const masked = maskText(text);
  return cpuMs(() => {
    parseCreditText(text, c);
    normalizeCredit({ captionTail: text, byline: [text], creditLine: text, source: text, copyright: text }, rules);
    bylineCreators(text, c, emptyFlags());
    displayCaseName(text, c);
    houseLine(rules, [text], { id: null, name: text }, { id: 'GETTY', name: 'Getty Images' }, { id: null, name: text });
    cleanCaption(text, { title: text.slice(0, 200) });
    findBoilerplate(masked);
    findNoise(masked);
    findCounterAndTitle(text, masked, text.slice(0, 200));
    findCreditTailStart(masked, c);
    readCaptionDate(masked);
    findDates(masked);
    const texts = (['iptc:specialInstructions', 'iptc:credit', 'caption', 'newsml:edNote'] as const).map((source) => ({
      source,
      text,
    }));
    readRights({ texts });
    readRelease({ texts, referenceTime: '2024-03-05T12:00:00Z', agency: 'AP' });
    readNotice({ texts, ids: { transmissionReference: 'NYPS101' } });
  });
}

const ASCII_UNIT = 'The photographer waited outside the court for the verdict on Tuesday morning. ';

function measure(unit: string, n: number): { ms: number; base: number } {
  const text = fill(unit, n);
  const baseline = fill(ASCII_UNIT, n);
  let ms = Infinity;
  let base = Infinity;
  for (let k = 0; k < 2; k++) {
    base = Math.min(base, runAll(baseline));
    ms = Math.min(ms, runAll(text));
  }
  return { ms, base };
}

const rows: string[] = [];
afterAll(() => {
  if (process.env.PHOTOWIRE_PRINT_TIMINGS) {
    process.stdout.write(
      `| text | 10,000 ms | 100,000 ms | ASCII 100,000 ms | ratio |\n|---|---|---|---|---|\n${rows.join('\n')}\n`,
    );
  }
});

beforeAll(() => {
  runAll(
    'AFP PHOTO / LEON NEAL (Photo credit should read LEON NEAL/AFP/GettyImages). NO SALES. LONDON, ENGLAND - MAY 30: x',
  );
  runAll(fill(ASCII_UNIT, 10_000));
});

/**
 * Noise on a shared machine only ever makes a run slower (a collection, another process on the
 * core): a measurement outside the budget is taken again, up to four times, and the fastest kept.
 * A quadratic rule stays outside however often it is measured; a linear one measured while another
 * process had the core (CI once failed "emoji" at 10,000 characters that way, with twice) gets
 * more turns to show it.
 */
function measureSteady(
  unit: string,
  n: number,
  within: (r: { ms: number; base: number }) => boolean,
): { ms: number; base: number } {
  let r = measure(unit, n);
  for (let again = 0; again < 4 && !within(r); again++) {
    const next = measure(unit, n);
    r = { ms: Math.min(r.ms, next.ms), base: Math.min(r.base, next.base) };
  }
  return r;
}

function check(name: string, unit: string, ratio = RATIO): void {
  const within = (r: { ms: number; base: number }) => r.ms <= ratio * r.base + SLACK_MS;
  const small = measureSteady(unit, N / 10, within);
  // At 10,000 characters first: a quadratic rule is already 10x slower than linear there.
  // As a sentence, so that a failure prints the times and not only `within: false`.
  const said = (at: number, r: { ms: number; base: number }, ok: boolean) =>
    `${name} at ${at} characters: ${r.ms.toFixed(1)} ms against ASCII ${r.base.toFixed(1)} ms (budget ${ratio}x + ${SLACK_MS} ms, ceiling ${ABSOLUTE_MS} ms): ${ok ? 'within' : 'OUTSIDE'}`;
  expect(said(N / 10, small, within(small))).toMatch(/: within$/);
  const big = measureSteady(unit, N, (r) => within(r) && r.ms < ABSOLUTE_MS);
  rows.push(
    `| ${name} | ${small.ms.toFixed(0)} | ${big.ms.toFixed(0)} | ${big.base.toFixed(0)} | ${(big.ms / big.base).toFixed(2)} |`,
  );
  expect(said(N, big, within(big) && big.ms < ABSOLUTE_MS)).toMatch(/: within$/);
}

const SCRIPTS: Array<[string, string]> = [
  ['Latin', 'Protesters gather outside parliament in London as police look on. '],
  ['Latin with diacritics', 'Łódź żółć gęślą jaźń Ærøskøbing Škoda Gdańsk Zürich Ñandú. '],
  ['"Ł" only (the issue)', 'Ł'],
  ['"ł" only (the issue)', 'ł'],
  ['Latin with diacritics, no spaces', 'Łżółćęśąźń'],
  ['Cyrillic', 'Москва фотография агентство снимок корреспондент. '],
  ['Arabic', 'صورة وكالة الأنباء مصور غزة القاهرة. '],
  ['CJK', '東京写真通信社の記者が撮影した。'],
  ['emoji', '📷🔥👍🏽🇨🇦 '],
  ['emoji, no spaces', '📷🔥👍🏽🇨🇦'],
  ['one ASCII letter', 'a'],
  ['one capital', 'A'],
];

/** Texts made of what the rules look for, each repeated: a rule that rescans shows here. */
const ADVERSARIAL: Array<[string, string]> = [
  ['agency chains', 'AFP/'],
  ['photo by', 'Photo by '],
  ['credit labels', 'Credit: '],
  ['open brackets', '('],
  ['closing brackets and spaces', ') '],
  ['unclosed (credit:', '(credit: A '],
  ['unclosed tags', '(A - Tags:'],
  ['capitals and stops', 'AB. '],
  ['hyphenated capitals', 'A-'],
  ['apostrophes', "O'"],
  ['HO- glued', 'HO-'],
  ['datelines', 'LONDON, ENGLAND - '],
  ['capitals on lines', 'A\n'],
  ['places OUT', 'ABC OUT '],
  ['via chains', 'X via '],
  ['for clients', 'X for '],
  ['and names', 'Jo and '],
  ['separators', ' - '],
  ['quotes', '"'],
  ['mandatory credit quotes', 'MANDATORY CREDIT "'],
  ['copyright signs', '© '],
  ['counters', '(1 of 2) '],
  ['picture taken', 'PICTURE TAKEN '],
  ['attention editors', 'ATTENTION EDITORS '],
  ['PA file markers', 'PRESS ASSOCIATION Photo Issue date '],
  ['file photo dated', 'File photo dated '],
  ['month dates', 'May 30 '],
  ['numeric dates', '1/'],
  ['stops', '.'],
  ['should read', 'Photo credit should read '],
  ['rank words', 'U.S. Navy photo by Mass Communication Specialist 2nd Class '],
  // Rules 2026.12.3: capitals before PHOTO, Reuters' SEARCH notes, affiliations, camera info,
  // generative credits, names glued to agencies, studios, one-word credits.
  ['capitals words', 'AB '],
  ['SEARCH notes', 'SEARCH "A" FOR '],
  ['affiliation brackets', 'Jo (A) '],
  ['camera info labels', '(GPS) '],
  ['generative credits', 'Image created by Jo using '],
  ['names glued to agencies', 'Jo Doe-'],
  ['studio words', 'Jo Doe Photography '],
  ['handles', '@a_'],
];

describe('credit, caption, rights, release and kill rules are linear (100,000 characters)', () => {
  it.each(SCRIPTS)('%s', (name, unit) => check(name, unit));
  it.each(ADVERSARIAL)('adversarial: %s', (name, unit) => check(name, unit, ADVERSARIAL_RATIO));

  it('still reads a credit at the end of a long caption', () => {
    const caption = `${fill('Łódź żółć gęślą jaźń. ', N - 60)} REUTERS/Kacper Pempel`;
    const cleaned = cleanCaption(caption);
    expect(cleaned.creditTail).toBe('REUTERS/Kacper Pempel');
    const credit = normalizeCredit(
      { captionTail: cleaned.creditTail, byline: [], creditLine: null, source: null, copyright: null },
      rules,
    );
    expect(credit.creators).toEqual(['Kacper Pempel']);
  });
});
