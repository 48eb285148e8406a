/** The parts of a received caption that are not the caption: where they are and what they are. */

export interface Removal {
  start: number;
  end: number;
  kind: string;
  /** Removing it leaves a sentence that starts lower-case ("of Julian Assange."): capitalize it. */
  capitalizeNext?: boolean;
}

const COUNTER = /\(\s*(\d{1,4})\s*of\s*(\d{1,4})\s*\)/gi;

const DATE_WORDS =
  '(?:\\d{1,2}[/.-]\\d{1,2}[/.-]\\d{2,4}|\\d{4}-\\d{2}-\\d{2}|[A-Z][a-z]{2,8}\\.?\\s+\\d{1,2},?\\s+\\d{4}|\\d{1,2}\\s+[A-Z][a-z]{2,8}\\.?,?\\s+\\d{4})';

/**
 * Slideshow counters "(12 of41)" and the truncated title line before one ("A supporter of
 * Wikileaks founder Julian (12 of41)"), plus a title the feed gave that the caption repeats on
 * its own first line. A counter ending the caption is removed alone: the text before it is the caption.
 */
export function findCounterAndTitle(raw: string, masked: string, title?: string): Removal[] {
  const out: Removal[] = [];
  const firstText = masked.search(/\S/);
  // One pass: the last line break before each counter and the last text of the caption are
  // tracked, not searched again per counter (that was quadratic in the number of counters).
  let lastText = masked.length - 1;
  while (lastText >= 0 && /\s/.test(masked[lastText])) lastText--;
  let scanned = 0;
  let lineStart = 0;
  for (const m of masked.matchAll(COUNTER)) {
    out.push({ start: m.index, end: m.index + m[0].length, kind: 'counter' });
    for (; scanned < m.index; scanned++) if (raw[scanned] === '\n') lineStart = scanned + 1;
    const onFirstLine = firstText >= lineStart;
    const captionFollows = lastText >= m.index + m[0].length;
    // On the first line, text before the counter means the caption's first text comes before it.
    if (onFirstLine && captionFollows && firstText < m.index) {
      out.push({ start: lineStart, end: m.index, kind: 'title' });
    }
  }
  const t = title?.replace(COUNTER, '').replace(/\s+/g, ' ').trim();
  if (t && firstText >= 0 && !out.some((r) => r.kind === 'title')) {
    const lineEnd = raw.indexOf('\n', firstText);
    if (
      lineEnd > 0 &&
      masked.slice(firstText, lineEnd).replace(/\s+/g, ' ').trim() === t &&
      masked.slice(lineEnd).trim() !== ''
    ) {
      out.push({ start: firstText, end: lineEnd, kind: 'title' });
    }
  }
  return out;
}

/** Everything else that is not caption text; `masked` is the caption with quotes and spaces normalized. */
export function findNoise(masked: string): Removal[] {
  const out: Removal[] = [];
  const add = (re: RegExp, kind: string, capitalizeNext = false) => {
    for (const m of masked.matchAll(re)) {
      if (m[0].trim()) out.push({ start: m.index, end: m.index + m[0].length, kind, capitalizeNext });
    }
  };
  // Repetitions are bounded where a start could otherwise scan to the end of the caption and
  // fail, once per start (test/unit/core/credits/linearity.test.ts).
  add(/\(\s*credit\s*:(?!\s*@)[^)]{0,300}\)/gi, 'publisher-suffix');
  add(/\((?:[^()]{0,300}?\s-\s*)?Tags:[^)]{0,500}\)/g, 'tags');
  add(/\bTPX IMAGES OF THE DAY\b\.?/g, 'editor-note');
  add(/\bTEMPLATE OUT\b\.?/g, 'editor-note');
  add(/\bSEARCH\s+"[^"]*"\s+FOR\s+[A-Z ]+\.?/g, 'editor-note');
  add(/\bPICTURE TAKEN\b[^a-z]{0,500}?(?:\.(?=\s|$)|$)/g, 'editor-note');
  for (const m of masked.matchAll(/\bATTENTION\s+EDITORS?\b[^a-z]*/g)) {
    let text = m[0];
    // The note is in capitals; stop at its last full stop when ordinary text follows it.
    if (m.index + text.length < masked.length) {
      const lastStop = text.lastIndexOf('.');
      text = lastStop > 0 ? text.slice(0, lastStop + 1) : text;
    }
    out.push({ start: m.index, end: m.index + text.length, kind: 'editor-note' });
  }
  add(/\b(?:See|SEE)\s+(?:[A-Z]{1,8}\s+)?(?:story|Story|STORY)\b[^.]*\.?/g, 'story-ref');
  // dpa's story reference, "(zu dpa "Streit um Haushalt geht weiter")": the same kind as PA's "See PA story".
  add(/\(\s{0,3}zu\s{1,3}dpa\b[^()]{0,300}\)/g, 'story-ref');
  add(/\(\s*(?:FILES?|FILE PHOTO|FILE PIC(?:TURE)?|ARCHIVES?)\s*\)\s*/g, 'file-marker');
  add(/^\s*FILE(?:\s+PHOTO)?\s*(?::|\s[-–—])\s*/g, 'file-marker');
  add(
    new RegExp(
      `\\bFile\\s+(?:photo|picture|pic|image)\\s+dated\\s+${DATE_WORDS},?(?:\\s+(?:of|showing|shows)\\b)?\\s*`,
      'gi',
    ),
    'file-marker',
    true,
  );
  add(/\bPRESS ASSOCIATION Photo\.?(?:\s*(?:Issue|Picture) date:?[^\n]{0,200}?\d{4}\.?)?/g, 'file-marker');
  // PA Media's house line since 2018: "PA Photo. Picture date: Tuesday May 2, 2023." (not a file marker).
  add(/\bPA Photo\.(?:\s*Picture date:?[^\n]{0,200}?\d{4}\.?)?/g, 'editor-note');
  add(/(?:\bEditorial use only\.?\s*)?\bRESTRICTIONS:.*$/gi, 'restrictions');
  // EPA's picture number in front of the caption ("epa03282543 A masked supporter ..."): an id,
  // new with every transmission, not caption text (the record keeps it in captionRemoved).
  add(/^\s*epa\d{8}\s+/g, 'agency-id');
  // Reuters' market restrictions between the caption and its credit ("NO USE FRANCE. NO USE
  // SWITZERLAND."): rights, read from the caption as received (src/core/rights), not caption text.
  add(/\bNO USE(?: {1,3}[A-Z][A-Z'-]{1,30}){1,4}\.(?= |$)/g, 'restrictions');
  return out;
}

/** Overlapping finds keep the earlier (then the longer) one. */
export function disjoint(removals: Removal[]): Removal[] {
  const sorted = [...removals].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Removal[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r.start < last.end) continue;
    out.push(r);
  }
  return out;
}
