/**
 * The labelled set of issue 27's caption clusters: real captions (the 2012 seed gallery, the
 * repository's wire fixtures, and real agency galleries in test/fixtures/dedup/clusters, each with
 * its origin), every resend edit the issue names made on each of them, and hard negatives: pictures
 * of one assignment that share the background, the slug or the tail and differ in the subject.
 *
 * Labels are pictures: an edit of a caption is the same picture; every original is its own picture
 * unless the labelling below says otherwise. Deterministic (fixed seed), built when it runs.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanCaption } from '../../src/core/captions/cleanCaption';
import { findDates } from '../../src/core/captions/readDate';
import { splitSentences } from '../../src/core/dedup/captionParts';
import { repoRoot } from '../common/paths';
import { prng } from './generateCaptions';
import { readRealCaptions } from './labelledSet';
import { readSeedCaptions } from './seedCaptions';

export const EDIT_KINDS = [
  'prefix',
  'credit',
  'file-tail',
  'date-format',
  'capitals',
  'whitespace',
  'quotes',
  'html',
  'mojibake',
  'spelling',
  'number',
  'typo',
  'sentence-appended',
  'sentence-dropped',
  'second-sentence-dropped',
] as const;
export type EditKind = (typeof EDIT_KINDS)[number];
export const NEGATIVE_KINDS = ['person', 'object', 'place', 'moment', 'score'] as const;
export type NegativeKind = (typeof NEGATIVE_KINDS)[number];

export interface LabelledCaption {
  id: string;
  caption: string;
  /** The picture: the truth label. */
  picture: string;
  /** The original this was made from (itself for an original). */
  original: string;
  /** The edit that made it, null for an original. */
  edit: EditKind | null;
}

export interface ClusterSet {
  captions: LabelledCaption[];
  /** Sets of pictures that share background or slug but are different subjects, by kind. */
  negatives: Array<{ kind: NegativeKind; pictures: string[] }>;
}

function galleriesFile(): string {
  return path.join(repoRoot(), 'test', 'fixtures', 'dedup', 'clusters', 'real-galleries.json');
}

/**
 * The seed under issue 27: 01/03/07 identical, 02/11 the same subject in the plural (the issue
 * allows them to join), 04/05 and 08/09 identical, 34/35 singular/plural, 36/38 the same subject
 * (the second sentence reworded). Every other caption is its own picture.
 */
export const SEED_PICTURES: readonly (readonly string[])[] = [
  ['01', '02', '03', '07', '11'],
  ['04', '05'],
  ['08', '09'],
  ['34', '35'],
  ['36', '38'],
];
const SEED_NEGATIVES: Array<{ kind: NegativeKind; pictures: string[] }> = [
  { kind: 'person', pictures: ['seed-01', 'seed-08', 'seed-10'] },
  { kind: 'person', pictures: ['seed-12', 'seed-13', 'seed-14', 'seed-15'] },
  { kind: 'moment', pictures: ['seed-19', 'seed-20', 'seed-22', 'seed-30'] },
  { kind: 'person', pictures: ['seed-33', 'seed-34', 'seed-37'] },
];

const PREFIXES = [
  'REFILE - CORRECTING SPELLING OF NAME ',
  'REFILE - ADDING PHOTOGRAPHER CREDIT ',
  'CORRECTION: ',
  'UPDATED CAPTION: ',
  'CORRECTED CAPTION - ',
];
const CREDITS = [
  ' REUTERS/Toby Melville',
  ' (AP Photo/Frank Augstein)',
  ' Photo credit: Yui Mok/PA',
  ' (Photo by Oli Scarff/Getty Images)',
  ' AFP PHOTO / LEON NEAL',
];
/** Background sentences a resend may append: real second sentences of the seed gallery. */
const APPENDED = [
  'The Ecuadorian authorities have accused the Government of threatening to enter its embassy in London to seize Mr Assange, who faces sexual assault charges in Sweden.',
  "Britain's Supreme Court ruled that Assange can be extradited to Sweden over alleged sex crimes, as it rejected his appeal.",
  'Assange entered the embassy on Monday in an attempt to gain political asylum to prevent him from being extradited to Sweden to face allegations of sex crimes, which he denies.',
];
const DATE_WORDS = /^(?:mon|tues|wednes|thurs|fri|satur|sun)day$|^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

type Rnd = () => number;
const pick = <T>(r: Rnd, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** The caption without its credit tail, and the tail (as cleanCaption finds it). */
function splitCredit(raw: string): { body: string; tail: string } {
  const tail = cleanCaption(raw).creditTail;
  if (tail === null) return { body: raw.trim(), tail: '' };
  const at = raw.lastIndexOf(tail);
  return at < 0 ? { body: raw.trim(), tail: '' } : { body: raw.slice(0, at).trim(), tail: ` ${tail}` };
}

/** A word of the subject (first sentence) matching `test`, with its position in `body`. */
function subjectWord(r: Rnd, body: string, test: (w: string) => boolean): { at: number; word: string } | null {
  // Words of the subject as the cleaner leaves it (not a FILE marker's, not a dateline's), no
  // weekday or month (a caption's words, not its date), each whole (not the "Watford" of "Watford's").
  const cleaned = splitSentences(cleanCaption(body).caption)[0] ?? '';
  const inSubject = new Set(cleaned.split(/[^\p{L}'\u2019]+/u));
  const first = splitSentences(body)[0] ?? body;
  const words = [...first.matchAll(/(?<![\p{L}'])[\p{L}]+(?![\p{L}'])/gu)].filter(
    (m) => test(m[0]) && m.index > 0 && inSubject.has(m[0]) && !DATE_WORDS.test(m[0]),
  );
  if (words.length === 0) return null;
  const m = pick(r, words);
  return { at: m.index, word: m[0] };
}

function toCp1252Mojibake(s: string): string {
  // UTF-8 bytes shown as cp1252 (the bytes 0x80-0x9f as cp1252's characters).
  const high =
    '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
  return [...Buffer.from(s, 'utf8')]
    .map((b) => (b >= 0x80 && b < 0xa0 ? high[b - 0x80] : String.fromCharCode(b)))
    .join('');
}

function curly(s: string): string {
  return s.replace(/"([^"]*)"/g, '\u201c$1\u201d').replace(/'/g, '\u2019');
}

/** One edit of a raw caption, or null when the caption has nothing it applies to. */
export function applyClusterEdit(r: Rnd, kind: EditKind, raw: string): string | null {
  const { body, tail } = splitCredit(raw);
  const sentences = splitSentences(body);
  switch (kind) {
    case 'prefix':
      return pick(r, PREFIXES) + raw;
    case 'credit': {
      const next = CREDITS.filter((c) => c.trim() !== tail.trim());
      return body + pick(r, next);
    }
    case 'file-tail':
      return `FILE PHOTO: ${body} REUTERS/Dylan Martinez/File Photo`;
    case 'date-format': {
      const d = findDates(body)[0];
      if (!d) return null;
      const [y, m, day] = d.iso.split('-').map(Number);
      const written = body.slice(d.index, d.end);
      const other = /^\d/.test(written) ? `${MONTHS[m - 1]} ${day}, ${y}` : `${day} ${MONTHS[m - 1]} ${y}`;
      return body.slice(0, d.index) + other + body.slice(d.end) + tail;
    }
    case 'capitals':
      return raw.toUpperCase();
    case 'whitespace':
      return `  ${raw.replace(/ /g, (sp) => (r() < 0.15 ? pick(r, ['  ', '\n', '\t', ' \u00a0']) : sp))} \n`;
    case 'quotes': {
      if (!/['"]/.test(raw)) return null;
      return curly(raw);
    }
    case 'html': {
      const withEntities = raw
        .replace(/ /g, (sp) => (r() < 0.1 ? '&nbsp;' : sp))
        .replace(/'/g, '&#39;')
        .replace(/"/g, '&quot;');
      return `<p>${withEntities}</p>`;
    }
    case 'mojibake': {
      const nonAscii = curly(raw).replace(/ - /g, ' \u2013 ');
      if (!/[^\u0000-\u007f]/.test(nonAscii)) return null;
      return toCp1252Mojibake(nonAscii);
    }
    case 'spelling': {
      // A name misspelt in one of the two: one letter dropped or doubled.
      const w = subjectWord(r, body, (x) => x.length >= 6 && /^\p{Lu}\p{Ll}+$/u.test(x));
      if (!w) return null;
      const i = 1 + Math.floor(r() * (w.word.length - 2));
      const wrong =
        r() < 0.5 ? w.word.slice(0, i) + w.word.slice(i + 1) : w.word.slice(0, i) + w.word[i] + w.word.slice(i);
      return body.slice(0, w.at) + wrong + body.slice(w.at + w.word.length) + tail;
    }
    case 'typo': {
      const w = subjectWord(r, body, (x) => x.length >= 5 && /^\p{Ll}+$/u.test(x));
      if (!w) return null;
      const i = 1 + Math.floor(r() * (w.word.length - 3));
      const swapped = w.word.slice(0, i) + w.word[i + 1] + w.word[i] + w.word.slice(i + 2);
      if (swapped === w.word) return null;
      return body.slice(0, w.at) + swapped + body.slice(w.at + w.word.length) + tail;
    }
    case 'number': {
      const dates = findDates(body);
      // A count or a measure standing alone: not a date's, a score's, an ordinal's or an id's digits.
      const nums = [...body.matchAll(/(?<=^|[\s(])\d+(?=[\s,.)]|$)/g)].filter(
        (m) => !dates.some((d) => m.index < d.end && d.index < m.index + m[0].length),
      );
      if (nums.length === 0) return null;
      const m = pick(r, nums);
      const n = Number(m[0].replace(/,/g, ''));
      return body.slice(0, m.index) + String(n + 1 + Math.floor(r() * 9)) + body.slice(m.index + m[0].length) + tail;
    }
    case 'sentence-appended':
      // A sentence is appended as a sentence: after a full stop (a slug caption's subject has none).
      return `${body}${/[.!?]["')]*$/.test(body) ? '' : '.'} ${pick(r, APPENDED)}${tail}`;
    case 'sentence-dropped':
      if (sentences.length < 2) return null;
      return sentences.slice(0, -1).join(' ') + tail;
    case 'second-sentence-dropped':
      if (sentences.length < 3) return null;
      return [sentences[0], ...sentences.slice(2)].join(' ') + tail;
  }
}

interface Original {
  id: string;
  caption: string;
  picture: string;
}

function originals(): { list: Original[]; negatives: ClusterSet['negatives'] } {
  const list: Original[] = [];
  for (const s of readSeedCaptions()) {
    const group = SEED_PICTURES.find((g) => g.includes(s.n));
    list.push({ id: `seed-${s.n}`, caption: s.raw, picture: `seed-${group ? group[0] : s.n}` });
  }
  for (const c of readRealCaptions()) list.push({ id: c.id, caption: c.raw, picture: c.id });
  const galleries = JSON.parse(fs.readFileSync(galleriesFile(), 'utf8')) as {
    captions: Array<{ picture: string; caption: string }>;
    hardNegatives: Array<{ kind: NegativeKind; pictures: string[] }>;
  };
  const seen = new Map<string, number>();
  for (const c of galleries.captions) {
    const k = (seen.get(c.picture) ?? 0) + 1;
    seen.set(c.picture, k);
    list.push({ id: `${c.picture}#${k}`, caption: c.caption, picture: c.picture });
  }
  // Scores: the same scorer's moment at two scores (generated on the real captions that score).
  const negatives = [...SEED_NEGATIVES, ...galleries.hardNegatives];
  for (const pic of ['ars-kaboul', 'tot-kane-second', 'liv-mane', 'cp-vanaanholt', 'ars-teammates']) {
    const src = galleries.captions.find((c) => c.picture === pic)!;
    const at = src.caption.indexOf(' during ');
    const pics: string[] = [];
    for (const score of ['1-0', '2-1', '3-1']) {
      const picture = `${pic}@${score}`;
      pics.push(picture);
      list.push({
        id: picture,
        caption: `${src.caption.slice(0, at)} to make it ${score}${src.caption.slice(at)}`,
        picture,
      });
    }
    negatives.push({ kind: 'score', pictures: pics });
  }
  return { list, negatives };
}

/** The labelled set: originals in their order, then their edits shuffled. */
export function buildClusterSet(seed = 27): ClusterSet {
  const r = prng(seed);
  const { list, negatives } = originals();
  const captions: LabelledCaption[] = list.map((o) => ({
    id: o.id,
    caption: o.caption,
    picture: o.picture,
    original: o.id,
    edit: null,
  }));
  const edits: LabelledCaption[] = [];
  for (const o of list) {
    for (const kind of EDIT_KINDS) {
      const caption = applyClusterEdit(r, kind, o.caption);
      if (caption === null || caption === o.caption) continue;
      edits.push({ id: `${o.id}~${kind}`, caption, picture: o.picture, original: o.id, edit: kind });
    }
  }
  for (let i = edits.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [edits[i], edits[j]] = [edits[j], edits[i]];
  }
  return { captions: [...captions, ...edits], negatives };
}
