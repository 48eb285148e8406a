import type { CreditFlags } from '../../schemas/credit';
import { normalizeText } from '../captions/normalizeText';
import { charSet, trimEndWhere, trimStartWhere } from '../captions/trimRuns';
import { lookupOrg, orgKey, type CompiledRules, type OrgRef } from './compileRules';
import { displayCaseName } from './nameCase';

/** What one credit text says, before it is combined with the IPTC fields. */
export interface ParsedCredit {
  creators: string[];
  agency: OrgRef | null;
  distributor: OrgRef | null;
  partners: OrgRef[];
  /** "for CNN" in "Getty Images for CNN": who commissioned the picture. */
  client: OrgRef | null;
  flags: CreditFlags;
  /** Name of the shape that matched (should-read, photo-by, agency-first...), null when none did. */
  rule: string | null;
  /** Parts that are neither a person, an organisation nor a known word: the credit needs a look. */
  unknown: string[];
  /** A credit marker or an organisation was found, so the person names in it can be trusted. */
  recognised: boolean;
  /** Readings that are a guess (a one-word credit, a handle, a bare name, a studio's owner): the credit needs a look. */
  guesses: string[];
  /** Not a credit at all: a camera's info block or default text ("Breite (GPS) : N/A", "OLYMPUS DIGITAL CAMERA"). */
  notCredit?: true;
  /** The agency is the "via" organisation and the credit names no other ("(Name/Pool via AP)"). */
  viaOnly?: boolean;
}

export function emptyFlags(): CreditFlags {
  return { file: false, pool: false, handout: false, mandatory: false, restrictions: [], supplierRef: null };
}

export function mergeFlags(into: CreditFlags, from: CreditFlags): void {
  into.file ||= from.file;
  into.pool ||= from.pool;
  into.handout ||= from.handout;
  into.mandatory ||= from.mandatory;
  for (const r of from.restrictions) if (!into.restrictions.includes(r)) into.restrictions.push(r);
  into.supplierRef ??= from.supplierRef;
  if (from.illustration) into.illustration = true;
}

export const sameOrg = (a: OrgRef | null, b: OrgRef | null): boolean =>
  !!a && !!b && (a.id !== null || b.id !== null ? a.id === b.id : a.name.toLowerCase() === b.name.toLowerCase());

interface OrgHit {
  org: OrgRef;
  via: boolean;
}

interface PartResult {
  label: string | null;
  creators: string[];
  orgs: OrgHit[];
  client: OrgRef | null;
  pools: OrgRef[];
  flags: CreditFlags;
  unknown: string[];
  /** Order the pieces came in: "o" organisation, "p" person, for naming the shape. */
  shape: string;
  guesses: string[];
}

const POOL: OrgRef = { id: null, name: 'Pool' };

/** A word of a person's name: capitalized ("Neal", "LEON", "O'Brien"), an initial ("A."), or "deGooyer". */
const NAME_TOKEN = /^(?:\p{Lu}[\p{L}\p{M}'.-]*|\p{Ll}+[\p{Lu}][\p{L}\p{M}'-]*|\p{Lu}\.)$/u;

function titleCasePlace(s: string): string {
  return s.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
}

const LEADING_SEPARATORS = charSet('-–—|,;:.', true);
const TRAILING_SEPARATORS = charSet('-–—|,;:', true);
const LABEL_LEAD = charSet('-–—|:.(', true);
const LABEL_TRAIL = charSet(')', true);
const PIECE_LEAD = charSet('"\'([', true);
const PIECE_TRAIL = charSet('"\')]', true);
const NOT_WORD = (ch: string) => !/[\p{L}\d]/u.test(ch);
const NOT_WORD_OR_DOT = (ch: string) => ch !== '.' && !/[\p{L}\d]/u.test(ch);

/**
 * Take out what is not the credit chain itself: publisher suffixes, Reuters tags, editors'
 * notes, supplier references, MANDATORY CREDIT and usage restrictions. Flags are set as found.
 */
function stripNotes(s: string, c: CompiledRules, flags: CreditFlags): { text: string; quoted: string | null } {
  // A © lost to a wrong character set: U+FFFD, "Â©" (UTF-8 read as Latin-1), a lone "?".
  let t = s.replace(/\uFFFD|Â©|(?<=^|[\s:(])\?(?=\s)/g, '©');
  let quoted: string | null = null;
  // Bounded repetitions: an unclosed "(credit:" or "(Tags:" repeated would otherwise make every
  // start scan to the end of the text (test/unit/core/credits/linearity.test.ts).
  // "(credit:Getty)" is a publisher's suffix; "(Credit: @handle)" is the credit itself.
  t = t.replace(/\(\s*credit\s*:(?!\s*@)[^)]{0,300}\)/gi, ' ');
  t = t.replace(/\((?:[^()]{0,300}?\s-\s*)?Tags:[^)]{0,500}\)/g, ' ');
  t = t.replace(/\bTPX IMAGES OF THE DAY\b/g, ' ').replace(/\bTEMPLATE OUT\b/g, ' ');
  // Reuters' story references after the credit: SEARCH "WIDER IMAGE" FOR ALL STORIES. Bounded: the
  // quoted slug and the words after FOR, so an unclosed quote costs nothing more.
  t = t.replace(/\bSEARCH\s{1,3}"[^"]{0,120}"\s{1,3}FOR\s{1,3}[A-Z0-9 ]{1,80}\.?/g, ' ');
  // "DIGITAL IMAGE. Mandatory Credit: X/Getty Images": the words before the marker are never the credit.
  const marker = /\*?\s*\bMANDATORY\s+CREDIT\b\s*\*?\s*:?/i.exec(t);
  if (
    marker &&
    marker.index > 0 &&
    !/[/(]/.test(t.slice(0, marker.index)) &&
    /\p{L}/u.test(t.slice(marker.index + marker[0].length))
  ) {
    t = t.slice(marker.index);
  }
  // AFP handout notes quote the credit to print: MANDATORY CREDIT "AFP PHOTO / US NAVY".
  const q = /MANDATORY\s+CREDIT\s*:?\s*"([^"]+)"/i.exec(t);
  if (q) {
    quoted = q[1];
    flags.mandatory = true;
    t = t.slice(0, q.index) + ' ' + t.slice(q.index + q[0].length);
  }
  // "(AW)", "(AW/SW)" after a Navy rate, "(RELEASE)" after a handout: not names, not partners.
  if (c.ignoredBrackets) t = t.replace(c.ignoredBrackets, ' ');
  t = t.replace(/\(\s*(\d{5,}[a-z]{0,4})\s*\)/gi, (_m, ref: string) => {
    flags.supplierRef ??= ref;
    return ' ';
  });
  t = t.replace(/\*?\s*\bMANDATORY\s+CREDIT\b\s*\*?\s*:?/gi, () => {
    flags.mandatory = true;
    return ' ';
  });
  t = t.replace(/\bATTENTION\s+EDITORS?\b.*$/i, (note) => {
    collectRestrictions(note, c, flags);
    return ' ';
  });
  t = collectRestrictions(t, c, flags);
  t = t.replace(/\ball rights reserved\b\.?/gi, ' ');
  if (c.ignoredPrefix) t = t.trimStart().replace(c.ignoredPrefix, '');
  // What the notes leave behind: doubled separators, stray asterisks, dangling punctuation.
  // Runs of spaces are collapsed first: /\s+\.+/ tried from every space of a long run of them
  // (left where a long list of "X OUT" was taken out) rescans the run, quadratic.
  t = t
    .replace(/\*+/g, ' ')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+\.+(?=\s|$)/g, ' ')
    .replace(/\(\s*\)/g, ' ')
    .replace(/\s+([-–—|,;])(?:\s*[-–—|,;])+\s+/g, ' $1 ')
    .replace(/ {2,}/g, ' ');
  t = trimEndWhere(trimStartWhere(t, LEADING_SEPARATORS), TRAILING_SEPARATORS);
  return { text: t, quoted };
}

function collectRestrictions(t: string, c: CompiledRules, flags: CreditFlags): string {
  const add = (r: string) => {
    if (!flags.restrictions.includes(r)) flags.restrictions.push(r);
  };
  let out = t;
  if (c.restrictionPhrases) {
    out = out.replace(c.restrictionPhrases, (m) => {
      add(m.replace(/\s+/g, ' '));
      return ' ';
    });
  }
  out = out.replace(c.placeOut, (m, place: string) => {
    if (/^(?:TEMPLATE|PHOTO|IMAGES)$/.test(place)) return m;
    add(`${titleCasePlace(place.replace(/\s+/g, ' '))} OUT`);
    return ' ';
  });
  return out;
}

/** Leading labels of a credit part; returns the label kind found, if any. */
const LABELS: Array<[RegExp, string]> = [
  [/^(?:photo|picture|pic|image)s?\s+credit\s+should\s+read\s*:?\s*/i, 'should-read'],
  [/^credit\s+image\s*:\s*/i, 'credit-image'],
  [/^(?:photo|picture|pic|image)s?\s+credits?\s*:?\s*/i, 'labelled'],
  [/^(?:mandatory\s+)?credits?\s*:\s*/i, 'labelled'],
  [/^(?:photo(?:graph)?s?|pictures?|images?|pics?|fotos?)\s+(?:by|from)\s*:?\s*/i, 'photo-by'],
  [/^(?:photo(?:graph)?|picture|pic|foto|image|source|illustration|graphic)s?\s*:\s*/i, 'labelled'],
  [/^(?:(?:photo|picture|image)s?\s+)?courtesy(?:\s+of)?\s*:?\s*/i, 'courtesy'],
  [/^pool\s+(?:photo|picture|image)s?(?:\s+by)?\s*:?\s+/i, 'pool'],
  [/^obtained\s+by\s+/i, 'labelled'],
  [/^satellite\s+(?:image|photo|picture)s?\s*:?\s*/i, 'labelled'],
  [/^(?:©|\(c\)|copyright)\s*(?:©\s*)?(?:\d{4}\s*)?/i, 'copyright'],
];

function stripLabels(s: string, flags: CreditFlags, c: CompiledRules): { text: string; label: string | null } {
  let t = trimEndWhere(trimStartWhere(s, LABEL_LEAD), LABEL_TRAIL);
  let label: string | null = null;
  for (let guard = 0; guard < 6; guard++) {
    let matched = false;
    for (const [re, kind] of LABELS) {
      const m = re.exec(t);
      if (m && m[0].length > 0) {
        t = t.slice(m[0].length).replace(/^[\s\-–—|:]+/, '');
        if (kind === 'courtesy') flags.handout = true;
        if (kind === 'pool') flags.pool = true;
        // "Mandatory Credit: Photo by X": the more specific label names the shape.
        if (label === null || label === 'labelled' || label === 'copyright' || label === 'courtesy' || label === 'pool')
          label = kind;
        matched = true;
        break;
      }
    }
    // "Bild:", "Fotó:", "Kuva:": the rules' label words in other languages.
    const other = c.labelPrefix?.exec(t);
    if (!matched && other && other[0].length > 0) {
      t = t.slice(other[0].length);
      label ??= 'labelled';
      matched = true;
    }
    if (!matched) break;
  }
  return { text: t.trim(), label };
}

/** "CHRISTOF STACHECHRISTOF STACHE": a name sent twice with the separator lost. */
function undouble(s: string): string {
  const n = s.length;
  if (n >= 6 && n % 2 === 0 && s.slice(0, n / 2) === s.slice(n / 2)) return s.slice(0, n / 2);
  return s;
}

/** "Leon Neal." -> "Leon Neal": a final full stop after a word of three letters or more (not "A." or "Jr."-like initials). */
function dropFinalStop(s: string): string {
  if (!s.endsWith('.')) return s;
  // Three letters before the stop, by code point: /(\p{L}{3,})\.$/ retried every start of a long word.
  const before = Array.from(s.slice(Math.max(0, s.length - 7), -1)).slice(-3);
  return before.length === 3 && before.every((ch) => /\p{L}/u.test(ch)) ? s.slice(0, -1) : s;
}

type Piece =
  | { kind: 'person'; names: string[]; guess?: string }
  | { kind: 'studio'; names: string[]; org: OrgRef }
  | { kind: 'chain'; agency: OrgRef; distributor: OrgRef | null }
  | { kind: 'org'; org: OrgRef }
  | { kind: 'pool'; org: OrgRef }
  | { kind: 'flag' }
  | { kind: 'placeholder' }
  | { kind: 'unknown'; text: string };

function isOrgLike(tokens: string[], c: CompiledRules): boolean {
  if (tokens.length === 1) return true;
  if (/^(?:The|THE)$/.test(tokens[0])) return true;
  return tokens.some((t) => {
    const w = trimEndWhere(trimStartWhere(t.toLowerCase(), NOT_WORD), NOT_WORD_OR_DOT);
    return c.orgWords.has(w) || c.orgWords.has(w.replace(/\.$/, '')) || /\.(?:com|net|org|co\.uk|de|fr)$/.test(w);
  });
}

function isPersonLike(tokens: string[], c: CompiledRules): boolean {
  if (tokens.length < 2 || tokens.length > 6) return false;
  let words = 0;
  for (const t of tokens) {
    if (c.particles.has(t.toLowerCase()) && t === t.toLowerCase()) continue;
    if (!NAME_TOKEN.test(t)) return false;
    if (/\p{L}{2,}/u.test(t)) words++;
  }
  return words >= 1;
}

/**
 * What one piece of a chain is. `afterAgency`: the piece follows a known agency ("AP Photo/Libkos"),
 * the photographer's place, so a single capitalized word there is a one-word name, not an organisation.
 */
function classifyPiece(raw: string, c: CompiledRules, flags: CreditFlags, afterAgency = false): Piece {
  const text = dropFinalStop(undouble(trimEndWhere(trimStartWhere(raw, PIECE_LEAD), PIECE_TRAIL).trim()));
  if (!text) return { kind: 'placeholder' };
  const upper = text.toUpperCase().replace(/\s+/g, ' ');
  if (c.placeholders.has(upper)) return { kind: 'placeholder' };
  if (c.fileWords.has(upper)) {
    flags.file = true;
    return { kind: 'flag' };
  }
  if (c.poolWords.has(upper)) {
    flags.pool = true;
    return { kind: 'pool', org: POOL };
  }
  if (c.handoutWords.has(upper)) {
    flags.handout = true;
    return { kind: 'flag' };
  }
  // "Getty Images/iStockphoto": a stock site's own chain spelling, one organisation and its distributor.
  const chain = c.chainAliases.get(orgKey(text));
  if (chain) return { kind: 'chain', ...chain };
  const org = lookupOrg(c, text);
  if (org) return { kind: 'org', org };
  // "@leogronlund_outdoors": a social-media handle is a person, but only a guess at who.
  if (/^@[\p{L}\d_.]{2,40}$/u.test(text)) return { kind: 'person', names: [text], guess: text };
  // "Photographer's Mate 3rd Class Elizabeth Thompson", "Staff Sgt. Jane Roe": the rank is not the name.
  const rank = c.rankPrefix?.exec(text);
  if (rank && rank[0].length < text.length) {
    const rest = text.slice(rank[0].length);
    const restTokens = rest.split(/\s+/);
    if (isPersonLike(restTokens, c) && !isOrgLike(restTokens, c))
      return { kind: 'person', names: [displayCaseName(rest, c)] };
  }
  // A sentence end inside ("the Supreme Court. Photo credit: Yui Mok") is caption text, not a name.
  // The three letters are a fixed-length lookbehind, not a repetition the engine retries from
  // every letter of a long word (/\p{Ll}{3,}[.!?]/ was quadratic on 10,000 "ł").
  if (/(?<=\p{Ll}{3})[.!?]\s+\p{Lu}/u.test(text)) return { kind: 'unknown', text };

  const tokens = text.split(/\s+/);
  const lowerTokens = tokens.map((t) => t.toLowerCase());
  // "Pool File", "Pool Photo", "File Handout": only flag words.
  const flagWord = (t: string) => c.fileWords.has(t) || c.poolWords.has(t) || c.handoutWords.has(t) || t === 'PHOTO';
  if (tokens.length > 1 && tokens.every((t) => flagWord(t.toUpperCase()))) {
    let piece: Piece = { kind: 'flag' };
    for (const t of tokens.map((x) => x.toUpperCase())) {
      if (c.fileWords.has(t)) flags.file = true;
      if (c.handoutWords.has(t)) flags.handout = true;
      if (c.poolWords.has(t)) {
        flags.pool = true;
        piece = { kind: 'pool', org: POOL };
      }
    }
    return piece;
  }
  if (lowerTokens.includes('pool')) {
    flags.pool = true;
    return { kind: 'pool', org: { id: null, name: text.replace(/\s+(?:photos?|pictures?)$/i, '') } };
  }
  // "US NAVY HANDOUT", "Handout Photo": the handout word flags, the rest is still classified.
  const handoutAt = tokens.findIndex((t) => c.handoutWords.has(t.toUpperCase()));
  if (handoutAt >= 0 && tokens.length > 1) {
    flags.handout = true;
    const rest = tokens.filter((_t, i) => i !== handoutAt && !/^(?:photo|picture|image)$/i.test(tokens[i])).join(' ');
    return rest ? classifyPiece(rest, c, flags) : { kind: 'flag' };
  }
  const fileAt = tokens.findIndex(
    (t, i) => /^files?$/i.test(t) && (i === tokens.length - 1 || /^photo$/i.test(tokens[i + 1] ?? '')),
  );
  if (fileAt > 0) {
    flags.file = true;
    return classifyPiece(tokens.slice(0, fileAt).join(' '), c, flags);
  }

  // Several people in one part: "John Smith and Jane Doe", "A. Smith & B. Jones".
  const people = text.split(/\s+(?:and|&|und|et|y)\s+/i);
  if (people.length > 1 && people.every((p) => isPersonLike(p.split(/\s+/), c) && !isOrgLike(p.split(/\s+/), c))) {
    return { kind: 'person', names: people.map((p) => displayCaseName(p, c)) };
  }
  if (afterAgency && tokens.length === 1 && /^\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?$/u.test(text)) {
    return { kind: 'person', names: [text] };
  }
  // "Jane Doe Photography LLC": a person's studio. The owner took the picture; the studio is the agency.
  const owner = studioOwner(tokens, c);
  if (owner) return { kind: 'studio', names: [displayCaseName(owner, c)], org: { id: null, name: text } };
  if (isOrgLike(tokens, c)) {
    if (tokens.length === 1 && !/\p{Lu}/u.test(text)) return { kind: 'unknown', text };
    // "Russian Defense Ministry Press Service photo": the organisation, without the word "photo"
    // ("Fox Photos" is a name: only the singular is dropped).
    const name = text.replace(/\s+(?:photo|picture)$/i, '');
    // "U.S. Navy", "Ministry of Defence": a government body's own picture is a handout.
    const spaced = ` ${name.toLowerCase().replace(/\s+/g, ' ')} `;
    for (const w of c.governmentWords) if (spaced.includes(` ${w} `)) flags.handout = true;
    return { kind: 'org', org: { id: null, name } };
  }
  if (isPersonLike(tokens, c)) return { kind: 'person', names: [displayCaseName(text, c)] };
  return { kind: 'unknown', text };
}

const COMPANY_SUFFIX = new Set([
  'llc',
  'ltd',
  'inc',
  'gmbh',
  'co',
  'limited',
  'plc',
  'pty',
  'ab',
  'oy',
  'sa',
  'srl',
  'bv',
]);

/**
 * The owner's name of a studio ("Jane Doe Photography LLC", "JOHN SMITH PHOTO LTD" -> "Jane Doe",
 * "JOHN SMITH"), or null: a person-like name of two to four words, a studio word, company suffixes.
 * "HEALY RACING PHOTO" is no person's studio ("racing" is an organisation word).
 */
function studioOwner(tokens: string[], c: CompiledRules): string | null {
  if (c.studioWords.size === 0 || tokens.length < 3 || tokens.length > 8) return null;
  const bare = (t: string) => t.toLowerCase().replace(/[.,]+$/, '');
  let end = tokens.length;
  while (end > 0 && COMPANY_SUFFIX.has(bare(tokens[end - 1]))) end--;
  if (end < 3 || !c.studioWords.has(bare(tokens[end - 1]))) return null;
  const name = tokens.slice(0, end - 1);
  if (name.length > 4 || name.some((t) => c.studioWords.has(bare(t)))) return null;
  return isPersonLike(name, c) && !isOrgLike(name, c) ? name.join(' ') : null;
}

/** Split a chain part into pieces: "/" between names and organisations, ", " and " - " inside them. */
function splitPieces(s: string, c: CompiledRules): string[] {
  const out: string[] = [];
  // "Getty Images/iStockphoto": a chain alias is one piece, whatever its slashes.
  if (c.chainAliases.has(orgKey(s))) return [s.trim()];
  // ", Inc", ", Jr.": a company's or a person's suffix, not a new piece ("Huey D. Younger, Jr./Released").
  const normalized = s
    .replace(/,\s*(Inc|Ltd|LLC|Corp|Co|PBC|plc)\b\.?/gi, ' $1')
    .replace(/,\s*(Jr|Sr)\b(\.?)/g, ' $1$2')
    .replace(/,\s*(II|III|IV)\b/g, ' $1');
  for (const seg of normalized.split(/\s*\/\s*|\s+[-–—|]+\s+|\s*\|\s*/)) {
    for (const piece of seg.split(/\s*,\s*/)) {
      // "NASA, ESA, Jane Doe, and John Roe": the list's last "and" is not part of the name.
      const p = piece.trim().replace(/^(?:and|&)\s+/i, '');
      if (!p) continue;
      // "Jacquelyn Martin-Pool": a person with a flag word glued on the end. Only whole words
      // ("Pool", "Handout"): "KIM JAE-HO" is a name, not a handout.
      const tailWord = /^(.+\S)-(\p{L}+)$/u.exec(p);
      if (
        tailWord &&
        tailWord[2].length >= 4 &&
        (c.poolWords.has(tailWord[2].toUpperCase()) || c.handoutWords.has(tailWord[2].toUpperCase()))
      ) {
        out.push(tailWord[1], tailWord[2]);
        continue;
      }
      // "HO-Annick deGooyer", "EPA-EFE", "STR-AFP": a flag word or two agencies glued by a hyphen.
      const glued = /^([^\s-]+)-(.+)$/.exec(p);
      if (glued) {
        const [, left, right] = glued;
        const leftUpper = left.toUpperCase();
        // Glued flag words are sent in capitals ("HO-Annick deGooyer"); "Ho-sung Lee" is a name.
        const leftIsWord =
          left === leftUpper &&
          /\s/.test(right) &&
          (c.handoutWords.has(leftUpper) ||
            c.placeholders.has(leftUpper) ||
            c.poolWords.has(leftUpper) ||
            c.fileWords.has(leftUpper));
        const bothOrgs = !lookupOrg(c, p) && lookupOrg(c, left) && lookupOrg(c, right);
        // "THE CANADIAN PRESS/AP-Ted S. Warren": an agency glued to a full name.
        const orgThenName = !lookupOrg(c, p) && lookupOrg(c, left) && /^\p{Lu}\S*\s+\S/u.test(right);
        if (leftIsWord || bothOrgs || orgThenName) {
          out.push(left, right);
          continue;
        }
      }
      // "Jake Roth-USA TODAY Sports": a full name glued to the agency by a hyphen (USA TODAY's style).
      // Only the last few hyphens are tried, each a plain lookup.
      if (p.length <= 120 && /\s/.test(p) && !lookupOrg(c, p)) {
        let cut = -1;
        for (let at = p.indexOf('-'), tries = 0; at > 0 && tries < 6; at = p.indexOf('-', at + 1), tries++) {
          const left = p.slice(0, at).trim();
          const right = p.slice(at + 1).trim();
          if (
            /\s/.test(left) &&
            right &&
            lookupOrg(c, right) &&
            isPersonLike(left.split(/\s+/), c) &&
            !isOrgLike(left.split(/\s+/), c)
          ) {
            cut = at;
            break;
          }
        }
        if (cut > 0) {
          out.push(p.slice(0, cut).trim(), p.slice(cut + 1).trim());
          continue;
        }
      }
      // "U.S. Navy photo by X": an organisation, then who took it.
      const orgPhotoBy = /^(\S.{0,120}?)\s+(?:photo(?:graph)?|picture|image)s?\s+by\s+(\S.*)$/iu.exec(p);
      // One word only when it is a known organisation or a government body ("DOD photo by", "Navy photo by").
      const byOrg = orgPhotoBy?.[1] ?? '';
      const oneKnownWord =
        !/\s/.test(byOrg) && (lookupOrg(c, byOrg) !== null || c.governmentWords.has(byOrg.toLowerCase()));
      if (orgPhotoBy && isOrgLike(byOrg.split(/\s+/), c) && (byOrg.split(/\s+/).length > 1 || oneKnownWord)) {
        out.push(orgPhotoBy[1], orgPhotoBy[2]);
        continue;
      }
      // "BELGA PHOTO NICOLAS MAETERLINCK": agency, the word PHOTO, the photographer, no slash.
      const photoWord = /^(.+?)\s+(?:PHOTO|FOTO|Photo)\s+(\S.*)$/u.exec(p);
      if (photoWord && lookupOrg(c, photoWord[1]) && !lookupOrg(c, p)) {
        out.push(photoWord[1], photoWord[2]);
        continue;
      }
      out.push(p);
    }
  }
  return out;
}

/** How a text is read: a caption's credit (the default) or an IPTC Credit/Source field, where one word is an organisation. */
export interface ParseOptions {
  orgField?: boolean;
}

/**
 * One word and nothing else ("Patrik", "MUSTERMANN", "jdoe123", "Eric"): a person at a guess when it is
 * a handle, a given name the rules list, or (outside IPTC organisation fields) a surname in capitals
 * of five letters or more; null when it reads as an organisation, as before ("Mustermann", "DPPI").
 */
function oneWordPerson(word: string, c: CompiledRules, opts: ParseOptions): Piece | null {
  const w = word.replace(/[.,;:]+$/, '');
  if (!w || /\s/.test(w) || lookupOrg(c, w) || c.chainAliases.has(orgKey(w))) return null;
  const upper = w.toUpperCase();
  if (c.placeholders.has(upper) || c.fileWords.has(upper) || c.poolWords.has(upper) || c.handoutWords.has(upper))
    return null;
  if (c.givenNames.has(w.toLowerCase())) return { kind: 'person', names: [displayCaseName(w, c)], guess: w };
  if (opts.orgField) return null;
  const handle = /^@?[\p{L}\d_.-]{2,40}$/u.test(w) && (/^@|[\d_]/u.test(w) || w === w.toLowerCase());
  if (handle && /\p{L}/u.test(w)) return { kind: 'person', names: [w], guess: w };
  if (/^\p{Lu}{5,}$/u.test(w) && /[AEIOUYÄÖÜÅÆØ]/.test(upper))
    return { kind: 'person', names: [displayCaseName(w, c)], guess: w };
  return null;
}

function parsePart(part: string, c: CompiledRules, opts: ParseOptions = {}): PartResult {
  const flags = emptyFlags();
  const { text, label } = stripLabels(part, flags, c);
  const res: PartResult = {
    label,
    creators: [],
    orgs: [],
    client: null,
    pools: flags.pool ? [POOL] : [],
    flags,
    unknown: [],
    shape: '',
    guesses: [],
  };
  if (!text) return res;

  // "Image created by Jane Doe using Midjourney": the person who made it, and a photo illustration.
  const generated = c.generative?.exec(text);
  if (generated) {
    flags.illustration = true;
    res.label ??= 'created-by';
    for (const name of generated[1].split(/\s+(?:and|&)\s+/i)) {
      const tokens = name.trim().split(/\s+/);
      if (isPersonLike(tokens, c) && !isOrgLike(tokens, c)) res.creators.push(displayCaseName(name.trim(), c));
      else res.unknown.push(name.trim());
    }
    res.shape = 'p';
    return res;
  }

  let body = text;
  // "Getty Images for CNN": what follows " for " is who the picture was made for, when it is
  // capitalized or an organisation precedes it ("Getty Images for dcp").
  const forMatch = /\s+for\s+(\S.*)$/u.exec(body);
  const beforeFor = forMatch ? body.slice(0, forMatch.index).split('/').pop()! : '';
  if (forMatch && (/^(?:the\s+)?\p{Lu}/u.test(forMatch[1]) || lookupOrg(c, beforeFor))) {
    const piece = classifyPiece(forMatch[1], c, flags);
    if (piece.kind === 'org' || lookupOrg(c, beforeFor)) {
      res.client = piece.kind === 'org' ? piece.org : { id: null, name: forMatch[1].trim() };
      body = body.slice(0, forMatch.index);
    }
  }
  // A leading "via" is what a label left: "Pool Photo via AP".
  const viaAt = body.search(/(?:^|\s+)via\s+/i);
  const left = viaAt >= 0 ? body.slice(0, viaAt) : body;
  const right = viaAt >= 0 ? body.slice(viaAt).replace(/^\s*via\s+/i, '') : '';

  const leftPieces = splitPieces(left, c);
  const rightPieces = splitPieces(right.replace(/\s+via\s+/gi, '/'), c);
  const pieces = [...leftPieces.map((p) => [p, false] as const), ...rightPieces.map((p) => [p, true] as const)];

  // One word and nothing else: a person at a guess, or (as before) an organisation.
  if (pieces.length === 1 && !/\s/.test(pieces[0][0].trim())) {
    const person = oneWordPerson(pieces[0][0].trim(), c, opts);
    if (person?.kind === 'person') {
      res.creators.push(...person.names);
      res.guesses.push(person.guess ?? person.names[0]);
      res.shape = 'p';
      return res;
    }
  }

  // "Name/Member Paper/AP", "Name/EUROPA PRESS/dpa": between the photographer and the agency at the
  // end, a part is an organisation (a member paper, a partner), never a second photographer, unless
  // it repeats the first name ("Samir Hussein/Samir Hussein/WireImage").
  const lastLeft = leftPieces.length - 1;
  const firstPiece = leftPieces.length >= 3 ? classifyPiece(leftPieces[0], c, emptyFlags()) : null;
  const endsWithAgency =
    leftPieces.length >= 3 &&
    (lookupOrg(c, leftPieces[lastLeft])?.id != null || c.chainAliases.has(orgKey(leftPieces[lastLeft])));
  const firstNames = firstPiece?.kind === 'person' ? firstPiece.names.map((n) => n.toLowerCase()) : null;

  let previous: Piece | null = null;
  let previousIndex = -1;
  const take = (pieceText: string, via: boolean, index: number) => {
    // "AP Photo/Libkos": one word after an agency that opens the credit is its photographer.
    const afterAgency = previous?.kind === 'org' && previous.org.id !== null && previousIndex === 0;
    let piece = classifyPiece(pieceText, c, flags, afterAgency);
    if (
      !via &&
      firstNames &&
      endsWithAgency &&
      index > 0 &&
      index < lastLeft &&
      piece.kind === 'person' &&
      !piece.names.some((n) => firstNames.includes(n.toLowerCase()))
    ) {
      piece = { kind: 'org', org: { id: null, name: pieceText.trim() } };
    }
    if (piece.kind !== 'flag' && piece.kind !== 'placeholder') {
      previous = piece;
      previousIndex = index;
    }
    switch (piece.kind) {
      case 'person':
        for (const n of piece.names)
          if (!res.creators.some((x) => x.toLowerCase() === n.toLowerCase())) res.creators.push(n);
        if (piece.guess) res.guesses.push(piece.guess);
        res.shape += 'p';
        break;
      case 'studio':
        for (const n of piece.names)
          if (!res.creators.some((x) => x.toLowerCase() === n.toLowerCase())) res.creators.push(n);
        res.orgs.push({ org: piece.org, via });
        res.shape += 'po';
        break;
      case 'chain':
        res.orgs.push({ org: piece.agency, via: false });
        if (piece.distributor) res.orgs.push({ org: piece.distributor, via: true });
        res.shape += 'o';
        break;
      case 'org':
        res.orgs.push({ org: piece.org, via });
        res.shape += 'o';
        break;
      case 'pool':
        if (!res.pools.some((p) => sameOrg(p, piece.org))) res.pools.push(piece.org);
        break;
      case 'unknown':
        res.unknown.push(piece.text);
        break;
      default:
        break;
    }
  };
  pieces.slice(0, MAX_PIECES).forEach(([p, via], i) => take(p, via, i));
  // Past the bound, what is left is not a credit chain: kept, unread, so the credit is checked.
  if (pieces.length > MAX_PIECES)
    res.unknown.push(
      pieces
        .slice(MAX_PIECES)
        .map(([p]) => p)
        .join(' / '),
    );
  return res;
}

/**
 * Bounds on what one credit is read as: a chain has a handful of pieces ("LEON NEAL/AFP/GettyImages")
 * and a credit a few parts (the text, a bracket or two). A text with thousands of them is not a
 * credit; reading each piece would cost time for nothing (test/unit/core/credits/linearity.test.ts).
 */
const MAX_PIECES = 32;
const MAX_PARTS = 16;

/** Top-level parts of a credit: the text outside brackets, each bracketed group, "---" sections. */
function splitParts(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') {
      if (depth === 0) {
        if (cur.trim()) parts.push(cur);
        cur = '';
      } else cur += ch;
      depth++;
    } else if (ch === ')' && depth > 0) {
      depth--;
      if (depth === 0) {
        if (cur.trim()) parts.push(cur);
        cur = '';
      } else cur += ch;
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur);
  return parts.flatMap((p) => p.split(/\s*-{2,}\s*|\s+\|\s+|\s*;\s*/)).filter((p) => /[\p{L}\d]/u.test(p));
}

function shapeRule(part: PartResult): string {
  if (part.label && part.label !== 'copyright' && part.label !== 'courtesy') return part.label;
  if (part.shape.startsWith('o') && part.shape.includes('p')) return 'agency-first';
  if (part.shape.startsWith('p')) return 'name-first';
  if (part.shape.length > 0) return 'org-only';
  return part.label ?? 'unknown';
}

/**
 * A camera's info block ("Breite (GPS) : N/A", "Altitude (m) : 12"): a label with a bracketed unit
 * or acronym before a colon, or a value "N/A" after one. Fixed shapes, tried once per start.
 */
const TECHNICAL_BLOCK = /\(\s?[\p{L}]{1,6}\s?\)\s{0,3}:|\s:\s{0,3}N\/A(?![\p{L}\d])/u;

/** Words in a bracket that make it part of the credit, not a person's institute or city. */
const CREDIT_BRACKET =
  /\b(?:photos?|pictures?|images?|credit|pool|files?|handout|via|by|should|courtesy|release[sd]?)\b|\d{5,}/i;

/**
 * "NASA, ESA, Jane Doe (STScI), and John Roe (JHU)", "Hubble Heritage Team (STScI/AURA) via AP":
 * an institute or a city in brackets after a name is neither a creator nor a partner. A bracket that
 * holds a credit word, a supplier reference or a rules agency stays.
 */
function dropAffiliations(text: string, c: CompiledRules): string {
  return text.replace(
    /(?<=[\p{L}.])\s{1,3}\(([^()]{1,60})\)(?=\s{0,3}(?:[,;]|\s(?:and|&|via)\s|$))/gu,
    (m, inner: string) => (CREDIT_BRACKET.test(inner) || inner.split('/').some((x) => lookupOrg(c, x)?.id) ? m : ''),
  );
}

/**
 * Read one credit text ("AFP PHOTO / LEON NEAL (Photo credit should read LEON NEAL/AFP/GettyImages)",
 * "(Ronen Zvulun, Pool Photo via AP)", "Mandatory Credit: Photo by X/NurPhoto/Shutterstock (16507315bs)").
 * "Photo credit should read X" wins over what comes before it; the other parts only fill gaps.
 */
export function parseCreditText(input: string, c: CompiledRules, opts: ParseOptions = {}): ParsedCredit {
  const flags = emptyFlags();
  const plain = normalizeText(input);
  // A camera's info block or default text where a credit goes: no credit, no creator, nothing unread.
  if (c.notCredits.has(plain.toUpperCase()) || TECHNICAL_BLOCK.test(plain)) {
    return {
      creators: [],
      agency: null,
      distributor: null,
      partners: [],
      client: null,
      flags,
      rule: null,
      unknown: [],
      recognised: false,
      guesses: [],
      notCredit: true,
    };
  }
  const stripped = stripNotes(plain, c, flags);
  const quoted = stripped.quoted;
  const text = dropAffiliations(stripped.text, c);

  const parts: Array<{ text: string; preferred: boolean }> = [];
  const should = /(?:photo|picture|pic|image)s?\s+credit\s+should\s+read\s*:?\s*/i.exec(text);
  if (should) {
    let after = text.slice(should.index + should[0].length);
    const close = after.indexOf(')');
    const before = text.slice(0, should.index);
    const openBefore = (before.match(/\(/g) ?? []).length > (before.match(/\)/g) ?? []).length;
    let rest = '';
    if (openBefore && close >= 0) {
      rest = after.slice(close + 1);
      after = after.slice(0, close);
    }
    parts.push({ text: `Photo credit should read ${after.replace(/[.\s]+$/, '')}`, preferred: true });
    for (const p of splitParts(before.replace(/\(\s*$/, '') + ' ' + rest)) parts.push({ text: p, preferred: false });
  } else {
    if (quoted) parts.push({ text: quoted, preferred: true });
    for (const p of splitParts(text)) parts.push({ text: p, preferred: false });
  }

  const results = parts.slice(0, MAX_PARTS).map((p) => ({ ...parsePart(p.text, c, opts), preferred: p.preferred }));
  if (parts.length > MAX_PARTS)
    results[results.length - 1].unknown.push(
      parts
        .slice(MAX_PARTS)
        .map((p) => p.text)
        .join(' '),
    );
  for (const r of results) mergeFlags(flags, r.flags);

  const hasOrgs = (r: PartResult) => r.orgs.length > 0 || r.pools.length > 0 || r.client !== null;
  const marked = (r: PartResult) => r.label !== null;
  const primary =
    results.find((r) => r.preferred && (hasOrgs(r) || r.creators.length > 0)) ??
    results.find((r) => hasOrgs(r) && marked(r)) ??
    results.find((r) => r.orgs.length > 0) ??
    results.find((r) => hasOrgs(r)) ??
    results.find((r) => marked(r) && r.creators.length > 0) ??
    // "Patrik", "jdoe123": a one-word credit read as a person, at a guess.
    results.find((r) => r.guesses.length > 0 && r.creators.length > 0) ??
    null;

  const unknown = results.flatMap((r) => r.unknown);
  const guesses = results.flatMap((r) => r.guesses);
  if (!primary) {
    return {
      creators: [],
      agency: null,
      distributor: null,
      partners: [],
      client: null,
      flags,
      rule: null,
      unknown: unknown.length ? unknown : text ? [text] : [],
      recognised: false,
      guesses,
    };
  }

  const { agency, distributor, partners } = assemble(primary, c);
  const viaOnly = primary.orgs.length > 0 && primary.orgs.every((o) => o.via);
  let agencyOut = agency;
  let distributorOut = distributor;
  let client = primary.client;
  const creators = [...primary.creators];
  const partnerList = [...partners];
  const addPartner = (o: OrgRef | null) => {
    if (!o || sameOrg(o, agencyOut) || sameOrg(o, distributorOut) || partnerList.some((p) => sameOrg(p, o))) return;
    partnerList.push(o);
  };
  for (const r of results) {
    if (r === primary) continue;
    if (creators.length === 0) creators.push(...r.creators);
    const other = assemble(r, c);
    if (!agencyOut) {
      agencyOut = other.agency;
      distributorOut ??= other.distributor;
    } else if (sameOrg(other.agency, agencyOut) && !distributorOut && other.distributor) {
      distributorOut = other.distributor;
    }
    addPartner(other.agency);
    addPartner(other.distributor);
    for (const p of other.partners) addPartner(p);
    client ??= r.client;
  }
  // "Photo by X for The Washington Post" with nothing else: the client is who the credit names.
  if (!agencyOut && client) {
    agencyOut = client;
    client = null;
  }
  if (client) addPartner(client);

  return {
    creators,
    agency: agencyOut,
    distributor: distributorOut,
    partners: partnerList,
    client,
    flags,
    rule: shapeRule(primary),
    unknown,
    recognised: true,
    guesses,
    viaOnly,
  };
}

/** Agency, distributor and partners of one part, from the order its organisations came in. */
function assemble(
  r: PartResult,
  c: CompiledRules,
): { agency: OrgRef | null; distributor: OrgRef | null; partners: OrgRef[] } {
  const dedupe = (xs: OrgRef[]) => xs.filter((o, i) => xs.findIndex((y) => sameOrg(y, o)) === i);
  const left = dedupe(r.orgs.filter((o) => !o.via).map((o) => o.org));
  const via = dedupe(r.orgs.filter((o) => o.via).map((o) => o.org));
  let agency: OrgRef | null = null;
  let distributor: OrgRef | null = null;
  let rest: OrgRef[] = [];
  if (left.length === 0 && via.length > 0) {
    // "Pool Photo via AP", "Handout via REUTERS": nobody else is named, the via agency is the agency.
    agency = via[0];
    distributor = via.length > 1 ? via[via.length - 1] : null;
    rest = via.slice(1, via.length > 1 ? -1 : undefined);
  } else if (left.length > 0) {
    agency = left[0];
    if (via.length > 0) {
      // "KCNA via KNS/AFP via Getty Images": the last one named licenses it.
      const last = via[via.length - 1];
      distributor = sameOrg(last, agency) ? null : last;
      rest = [...left.slice(1), ...via.slice(0, -1)];
    } else if (left.length >= 2 && c.distributorIds.has(left[left.length - 1].id ?? '')) {
      distributor = left[left.length - 1];
      rest = left.slice(1, -1);
    } else if (left.length >= 2 && r.shape.startsWith('p') && left[left.length - 1].id !== null) {
      // "Name/AP/dpa", "Name/Kyodo/Reuters": after the photographer, the first organisation is the
      // agency and a rules agency at the end is who distributes it; those between are partners.
      distributor = left[left.length - 1];
      rest = left.slice(1, -1);
    } else {
      rest = left.slice(1);
    }
  }
  const partners = dedupe([...rest, ...r.pools]).filter((o) => !sameOrg(o, agency) && !sameOrg(o, distributor));
  return { agency, distributor, partners };
}

/**
 * The people an IPTC By-line names. By-lines also carry "STR", "HO", "REUTERS TV" or
 * "Ravi Menon/Shutterstock": placeholders and organisations are never creators.
 */
export function bylineCreators(byline: string, c: CompiledRules, flags: CreditFlags, guesses: string[] = []): string[] {
  const text = normalizeText(byline);
  if (!text) return [];
  if (/[/|]|\s+via\s+/i.test(text)) {
    const parsed = parseCreditText(text, c);
    mergeFlags(flags, parsed.flags);
    return parsed.recognised ? parsed.creators : [];
  }
  // "jdoe123", "Patrik": a one-word By-line (a contributor's handle, a first name) is its creator, at a guess.
  const one = oneWordPerson(text, c, {});
  if (one?.kind === 'person') {
    guesses.push(one.guess ?? text);
    return one.names;
  }
  const piece = classifyPiece(text, c, flags);
  return piece.kind === 'person' ? piece.names : [];
}
