import { captionWords } from './normalize';

/**
 * One run of changed words: at word `at` of the canonical caption (0-based, words as split on
 * spaces), `deleted` (the canonical's words, as written) became `inserted` (the member's words,
 * as written). An insertion has deleted ''; a deletion has inserted ''.
 */
export interface WordEdit {
  at: number;
  deleted: string;
  inserted: string;
}

export interface WordDiff {
  /** Runs in canonical order, at most MAX_EDITS of them. */
  edits: WordEdit[];
  /** Runs left out because the diff was too long (0 almost always: members are near-identical). */
  more: number;
}

/** Caps that keep a record small: a member of a cluster differs by a few words. */
export const MAX_EDITS = 16;
export const MAX_RUN_CHARS = 240;

/** A word of ASCII letters and digits only: its key is its lower case (most words of a caption). */
const PLAIN_WORD = /^[A-Za-z0-9]+$/;

/** What a word is compared as: its caption words (case, quotes, punctuation never count). */
function key(word: string): string {
  if (PLAIN_WORD.test(word)) return word.toLowerCase();
  return captionWords(word).join(' ');
}

function clip(s: string): string {
  return s.length <= MAX_RUN_CHARS ? s : `${s.slice(0, MAX_RUN_CHARS - 1)}…`;
}

/**
 * Word-level diff of a member caption against its cluster's canonical caption (both cleaned),
 * Myers' O((N+M)D) shortest edit script. Words differing only in case or punctuation are equal,
 * so "London," and "London" are not an edit; a word that is nothing but punctuation ("-") is
 * compared as written.
 */
export function wordDiff(canonical: string, member: string): WordDiff {
  const a = canonical.split(/\s+/).filter((w) => w !== '');
  const b = member.split(/\s+/).filter((w) => w !== '');
  const ka = a.map((w) => key(w) || w);
  const kb = b.map((w) => key(w) || w);
  // Common prefix and suffix first: most members differ in one place.
  let pre = 0;
  while (pre < a.length && pre < b.length && ka[pre] === kb[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && ka[a.length - 1 - suf] === kb[b.length - 1 - suf]) suf++;
  const ops = myers(ka.slice(pre, a.length - suf), kb.slice(pre, b.length - suf));
  const edits: WordEdit[] = [];
  let i = pre;
  let j = pre;
  let run: { at: number; del: string[]; ins: string[] } | null = null;
  const flush = () => {
    if (run) edits.push({ at: run.at, deleted: clip(run.del.join(' ')), inserted: clip(run.ins.join(' ')) });
    run = null;
  };
  for (const op of ops) {
    if (op === '=') {
      flush();
      i++;
      j++;
    } else if (op === '-') {
      run ??= { at: i, del: [], ins: [] };
      run.del.push(a[i++]);
    } else {
      run ??= { at: i, del: [], ins: [] };
      run.ins.push(b[j++]);
    }
  }
  flush();
  return { edits: edits.slice(0, MAX_EDITS), more: Math.max(0, edits.length - MAX_EDITS) };
}

/**
 * Shortest edit script from x to y as '=', '-' (delete from x), '+' (insert from y). One frontier
 * array updated in place (diagonals of one parity read those of the other), and per step d only
 * its 2d + 1 live diagonals kept for the walk back: O(D^2) memory instead of O((N + M) D), which
 * was most of the diff's time and garbage in the index's profile (docs/DEDUP.md).
 */
export function myers(x: readonly string[], y: readonly string[]): Array<'=' | '-' | '+'> {
  const n = x.length;
  const m = y.length;
  if (n === 0) return Array<'+'>(m).fill('+');
  if (m === 0) return Array<'-'>(n).fill('-');
  const max = n + m;
  const off = max;
  const v = new Int32Array(2 * max + 2);
  // trace[d]: the frontier before step d, diagonals -d..d (trace[d][k + d]).
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let px: number;
      if (k === -d || (k !== d && v[off + k - 1] < v[off + k + 1])) px = v[off + k + 1];
      else px = v[off + k - 1] + 1;
      let py = px - k;
      while (px < n && py < m && x[px] === y[py]) {
        px++;
        py++;
      }
      v[off + k] = px;
      if (px >= n && py >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk back from (n, m): the step that reached diagonal k at d came from k + 1 or k - 1 at d - 1.
  const out: Array<'=' | '-' | '+'> = [];
  let px = n;
  let py = m;
  for (let d = trace.length - 1; d >= 0 && (px > 0 || py > 0); d--) {
    const vd = trace[d];
    const at = (k: number) => vd[k + d];
    const k = px - py;
    let prevK: number;
    if (d === 0) prevK = 0;
    else if (k === -d || (k !== d && at(k - 1) < at(k + 1))) prevK = k + 1;
    else prevK = k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = prevX - prevK;
    while (px > prevX && py > prevY) {
      out.push('=');
      px--;
      py--;
    }
    if (d > 0) {
      if (px === prevX) {
        out.push('+');
        py--;
      } else {
        out.push('-');
        px--;
      }
    }
  }
  while (px > 0 && py > 0) {
    out.push('=');
    px--;
    py--;
  }
  return out.reverse();
}
