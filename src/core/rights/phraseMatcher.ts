import { PhotowireError } from '../errors';
import type { RightsSourceKind } from '../../schemas/rights';
import { allUpper, tokenize, type Token } from './tokens';

/**
 * Phrases of the rules files, matched word by word over tokens (never a regular expression over
 * the input). A phrase is words separated by spaces:
 *   WORD            the word, any case, diacritics ignored ("FUR" matches "für")
 *   A|B|C           one of several single words
 *   WORD?  A|B?     optional (at most 4 optional parts per phrase)
 *   {places}        one or more known places ("CANADA", "NEW ZEALAND", "CANADA, JAPAN AND CHINA")
 *   {media}         one or more media ("MAGS", "TV AND INTERNET")
 *   {number}        a number in digits or words ("14", "FOURTEEN")
 *   {duration}      a number and a unit ("14 DAYS", "48 HOURS", "TWO WEEKS")
 *   {word}          any one word
 * A phrase never runs across a hard break (. ; : , and the like); a list slot may.
 */

export const SLOTS = ['places', 'media', 'number', 'duration', 'word'] as const;
export type Slot = (typeof SLOTS)[number];

export type Element = { kind: 'words'; words: ReadonlySet<string> } | { kind: 'slot'; slot: Slot };

/** Options of a group of phrases (see rulesSchema.ts). */
export interface GroupOptions {
  /** Kinds of text the phrases are read in. */
  in: ReadonlySet<RightsSourceKind>;
  /** In captions, also match when not written in capitals (the phrase cannot be ordinary prose). */
  anyCase: boolean;
  /** Match only when written in capitals, in every kind of text (codes such as "EUO", "HO"). */
  upper: boolean;
  /** Must start the text or follow a hard break. */
  start: boolean;
  /** Must end the text, be followed by a hard break, or by an agency id. */
  end: boolean;
}

export interface Pattern<T> {
  elements: Element[];
  value: T;
  /** The phrase as written in the rules, for `matched[].rule` and error messages. */
  phrase: string;
  opts: GroupOptions;
}

export interface SlotValue {
  slot: Slot;
  from: number;
  to: number;
  /** places/media: ListItem per name; number: [n]; duration: [milliseconds]; word: [the word]. */
  values: unknown[];
}

export interface Hit<T> {
  pattern: Pattern<T>;
  from: number;
  to: number;
  slots: SlotValue[];
}

/** A trie of multi-word names keyed by folded tokens. */
export class NameTrie<V> {
  private readonly root: TrieNode<V> = { next: new Map(), value: undefined };
  maxWords = 0;

  add(name: string, value: V): boolean {
    const words = tokenize(name).map((t) => t.norm);
    if (!words.length) return false;
    let node = this.root;
    for (const w of words) {
      let child = node.next.get(w);
      if (!child) {
        child = { next: new Map(), value: undefined };
        node.next.set(w, child);
      }
      node = child;
    }
    if (node.value === undefined) node.value = value;
    this.maxWords = Math.max(this.maxWords, words.length);
    return true;
  }

  /** The longest name starting at token `at` that does not cross a hard break. */
  longestAt(tokens: readonly Token[], at: number): { to: number; value: V } | null {
    let node = this.root;
    let best: { to: number; value: V } | null = null;
    for (let j = at; j < tokens.length && j - at < this.maxWords; j++) {
      if (j > at && tokens[j].breakBefore) break;
      const child = node.next.get(tokens[j].norm);
      if (!child) break;
      node = child;
      if (node.value !== undefined) best = { to: j + 1, value: node.value };
    }
    return best;
  }
}
interface TrieNode<V> {
  next: Map<string, TrieNode<V>>;
  value: V | undefined;
}

const NUMBER_WORDS: Record<string, number> = {
  ONE: 1,
  TWO: 2,
  THREE: 3,
  FOUR: 4,
  FIVE: 5,
  SIX: 6,
  SEVEN: 7,
  EIGHT: 8,
  NINE: 9,
  TEN: 10,
  ELEVEN: 11,
  TWELVE: 12,
  THIRTEEN: 13,
  FOURTEEN: 14,
  FIFTEEN: 15,
  SIXTEEN: 16,
  SEVENTEEN: 17,
  EIGHTEEN: 18,
  NINETEEN: 19,
  TWENTY: 20,
  THIRTY: 30,
  SIXTY: 60,
  NINETY: 90,
  A: 1,
  AN: 1,
  EIN: 1,
  EINE: 1,
  ZWEI: 2,
  DREI: 3,
  SIEBEN: 7,
  VIERZEHN: 14,
  DREISSIG: 30,
  UN: 1,
  UNE: 1,
  DEUX: 2,
  SEPT: 7,
  QUINZE: 15,
  TRENTE: 30,
  UNO: 1,
  DOS: 2,
  SIETE: 7,
  QUINCE: 15,
  TREINTA: 30,
};
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const UNITS: Record<string, number> = {
  HOUR: HOUR,
  HOURS: HOUR,
  HRS: HOUR,
  STUNDE: HOUR,
  STUNDEN: HOUR,
  HEURE: HOUR,
  HEURES: HOUR,
  HORA: HOUR,
  HORAS: HOUR,
  DAY: DAY,
  DAYS: DAY,
  TAG: DAY,
  TAGE: DAY,
  TAGEN: DAY,
  JOUR: DAY,
  JOURS: DAY,
  DIA: DAY,
  DIAS: DAY,
  WEEK: 7 * DAY,
  WEEKS: 7 * DAY,
  WOCHE: 7 * DAY,
  WOCHEN: 7 * DAY,
  SEMAINE: 7 * DAY,
  SEMAINES: 7 * DAY,
  SEMANA: 7 * DAY,
  SEMANAS: 7 * DAY,
  MONTH: 30 * DAY,
  MONTHS: 30 * DAY,
  MONAT: 30 * DAY,
  MONATE: 30 * DAY,
  MOIS: 30 * DAY,
  MES: 30 * DAY,
  MESES: 30 * DAY,
};
export const LIST_WORDS = new Set(['AND', 'OR', 'ET', 'OU', 'UND', 'ODER', 'Y', 'O', 'E']);

/** What list slots look names up in. */
export interface Lexicon {
  places: NameTrie<unknown>;
  media: NameTrie<unknown>;
}

function numberAt(tokens: readonly Token[], at: number): number | null {
  const t = tokens[at];
  if (!t) return null;
  if (t.norm.length <= 4 && /^\d{1,4}$/.test(t.norm)) return Number(t.norm);
  return NUMBER_WORDS[t.norm] ?? null;
}

/** One name of a list slot and where it was written. */
export interface ListItem {
  value: unknown;
  from: number;
  to: number;
}

/** A list of names from a trie: "CANADA", "CANADA, JAPAN AND CHINA", "TV/INTERNET". At most 24 names. */
export function listAt(
  trie: NameTrie<unknown>,
  tokens: readonly Token[],
  at: number,
): { to: number; items: ListItem[] } | null {
  const first = trie.longestAt(tokens, at);
  if (!first) return null;
  const items: ListItem[] = [{ value: first.value, from: at, to: first.to }];
  let to = first.to;
  while (to < tokens.length && items.length < 24) {
    const t = tokens[to];
    const listSep = t.sep.length > 0 && /^[,/&]+$/.test(t.sep);
    let start = -1;
    if (listSep) {
      if (trie.longestAt(tokens, to)) start = to;
      else if (LIST_WORDS.has(t.norm) && to + 1 < tokens.length && !tokens[to + 1].breakBefore) start = to + 1;
    } else if (!t.breakBefore && LIST_WORDS.has(t.norm) && to + 1 < tokens.length && !tokens[to + 1].breakBefore) {
      start = to + 1;
    }
    const next = start >= 0 ? trie.longestAt(tokens, start) : null;
    if (!next) break;
    items.push({ value: next.value, from: start, to: next.to });
    to = next.to;
  }
  return { to, items };
}

function slotAt(slot: Slot, lex: Lexicon, tokens: readonly Token[], at: number): SlotValue | null {
  switch (slot) {
    case 'places':
    case 'media': {
      const list = listAt(slot === 'places' ? lex.places : lex.media, tokens, at);
      return list ? { slot, from: at, to: list.to, values: list.items } : null;
    }
    case 'number': {
      const n = numberAt(tokens, at);
      return n === null ? null : { slot, from: at, to: at + 1, values: [n] };
    }
    case 'duration': {
      const n = numberAt(tokens, at);
      const unit =
        n === null || at + 1 >= tokens.length || tokens[at + 1].breakBefore ? undefined : UNITS[tokens[at + 1].norm];
      return n === null || unit === undefined ? null : { slot, from: at, to: at + 2, values: [n * unit] };
    }
    case 'word':
      return at < tokens.length ? { slot, from: at, to: at + 1, values: [tokens[at].norm] } : null;
  }
}

/** A phrase of a rights rule that cannot be compiled; the rules schema turns it into an issue naming the rule. */
export class PhraseError extends PhotowireError {
  constructor(message: string) {
    super('RULES_PHRASE_INVALID', message);
    this.name = 'PhraseError';
  }
}

interface Part {
  elements: Element[];
  optional: boolean;
}

/** The variants of one phrase, optional parts expanded. Throws PhraseError naming the problem. */
export function compilePhrase(phrase: string): Element[][] {
  const parts: Part[] = [];
  for (const raw of phrase.trim().split(/\s+/)) {
    if (!raw) continue;
    const optional = raw.endsWith('?') && raw.length > 1;
    const body = optional ? raw.slice(0, -1) : raw;
    const slot = /^\{([a-z]+)\}$/.exec(body);
    if (slot) {
      if (!(SLOTS as readonly string[]).includes(slot[1])) {
        throw new PhraseError(`unknown slot {${slot[1]}} (known: ${SLOTS.map((s) => `{${s}}`).join(' ')})`);
      }
      parts.push({ elements: [{ kind: 'slot', slot: slot[1] as Slot }], optional });
      continue;
    }
    if (/[{}]/.test(body)) throw new PhraseError(`"${raw}": braces are only for slots such as {places}`);
    const alternatives = body.split('|');
    if (alternatives.length > 1) {
      const words = new Set<string>();
      for (const alt of alternatives) {
        const toks = tokenize(alt);
        if (toks.length !== 1) throw new PhraseError(`"${alt}" in "${raw}" must be exactly one word`);
        words.add(toks[0].norm);
      }
      parts.push({ elements: [{ kind: 'words', words }], optional });
    } else {
      const toks = tokenize(body);
      if (!toks.length) throw new PhraseError(`"${raw}" has no letters or digits`);
      parts.push({ elements: toks.map((t) => ({ kind: 'words', words: new Set([t.norm]) })), optional });
    }
  }
  const optionals = parts.filter((p) => p.optional).length;
  if (optionals > 4) throw new PhraseError('at most 4 optional parts per phrase (write two phrases instead)');
  let variants: Element[][] = [[]];
  for (const p of parts) {
    variants = p.optional
      ? [...variants.map((v) => [...v, ...p.elements]), ...variants]
      : variants.map((v) => [...v, ...p.elements]);
  }
  variants = variants.filter((v) => v.length > 0);
  if (!variants.length) throw new PhraseError('the phrase is empty');
  return variants;
}

/**
 * Many patterns, indexed by their first two words. At each token only the patterns that start
 * with that word and the next (and those that start with a slot) are tried, each for at most its
 * own length: the cost is linear in the number of tokens.
 */
export class PhraseSet<T> {
  /** Patterns whose first two elements are words, by "FIRST SECOND". */
  private readonly byTwo = new Map<string, Pattern<T>[]>();
  /** Other patterns starting with a word (one word long, or a slot second), by first word. */
  private readonly byWord = new Map<string, Pattern<T>[]>();
  private readonly slotFirst: Pattern<T>[] = [];
  /** Every word a phrase of this set can start with. */
  readonly firstWords = new Set<string>();

  constructor(private readonly lex: Lexicon) {}

  add(phrase: string, value: T, opts: GroupOptions): void {
    const push = (map: Map<string, Pattern<T>[]>, key: string, p: Pattern<T>) => {
      let list = map.get(key);
      if (!list) map.set(key, (list = []));
      list.push(p);
    };
    for (const elements of compilePhrase(phrase)) {
      const pattern: Pattern<T> = { elements, value, phrase, opts };
      const [first, second] = elements;
      if (first.kind === 'slot') {
        this.slotFirst.push(pattern);
        continue;
      }
      for (const w of first.words) {
        this.firstWords.add(w);
        if (second && second.kind === 'words') for (const w2 of second.words) push(this.byTwo, `${w} ${w2}`, pattern);
        else push(this.byWord, w, pattern);
      }
    }
  }

  private candidates(tokens: readonly Token[], at: number, visit: (p: Pattern<T>) => void): void {
    const w = tokens[at].norm;
    const one = this.byWord.get(w);
    if (one) for (const p of one) visit(p);
    const next = tokens[at + 1];
    if (next && !next.breakBefore && this.firstWords.has(w)) {
      const two = this.byTwo.get(`${w} ${next.norm}`);
      if (two) for (const p of two) visit(p);
    }
    for (const p of this.slotFirst) visit(p);
  }

  /** Every match starting at token `at`, for text of the given kind. */
  matchAt(tokens: readonly Token[], at: number, kind: RightsSourceKind, isId?: (t: number) => boolean): Hit<T>[] {
    const out: Hit<T>[] = [];
    if (at < tokens.length) this.candidates(tokens, at, (p) => this.tryPattern(p, tokens, at, kind, out, isId));
    return out;
  }

  /** Every match anywhere in the tokens. */
  findAll(tokens: readonly Token[], kind: RightsSourceKind, isId?: (t: number) => boolean): Hit<T>[] {
    const out: Hit<T>[] = [];
    for (let at = 0; at < tokens.length; at++)
      this.candidates(tokens, at, (p) => this.tryPattern(p, tokens, at, kind, out, isId));
    return out;
  }

  private tryPattern(
    p: Pattern<T>,
    tokens: readonly Token[],
    at: number,
    kind: RightsSourceKind,
    out: Hit<T>[],
    isId?: (t: number) => boolean,
  ): void {
    if (!p.opts.in.has(kind)) return;
    if (p.opts.start && !tokens[at].breakBefore) return;
    let j = at;
    const slots: SlotValue[] = [];
    for (let k = 0; k < p.elements.length; k++) {
      if (j >= tokens.length) return;
      if (k > 0 && tokens[j].breakBefore) return;
      const el = p.elements[k];
      if (el.kind === 'words') {
        if (!el.words.has(tokens[j].norm)) return;
        j++;
      } else {
        const v = slotAt(el.slot, this.lex, tokens, j);
        if (!v) return;
        slots.push(v);
        j = v.to;
      }
    }
    if (p.opts.end && j < tokens.length && !tokens[j].breakBefore && !(isId && isId(j))) return;
    const mustBeUpper = p.opts.upper || (kind === 'caption' && !p.opts.anyCase);
    if (mustBeUpper && !allUpper(tokens, at, j)) return;
    out.push({ pattern: p, from: at, to: j, slots });
  }
}

/**
 * The hits to keep: longest first, then leftmost, never two overlapping, except that hits with
 * exactly the same span are all kept (one phrase may mean two things).
 */
export function selectHits<H extends { from: number; to: number }>(hits: readonly H[]): H[] {
  const sorted = [...hits].sort((a, b) => b.to - b.from - (a.to - a.from) || a.from - b.from);
  const taken = new Set<string>();
  const used = new Set<number>();
  const kept: H[] = [];
  for (const h of sorted) {
    const key = `${h.from}:${h.to}`;
    if (!taken.has(key)) {
      let free = true;
      for (let k = h.from; k < h.to && free; k++) if (used.has(k)) free = false;
      if (!free) continue;
      for (let k = h.from; k < h.to; k++) used.add(k);
      taken.add(key);
    }
    kept.push(h);
  }
  return kept.sort((a, b) => a.from - b.from);
}
