import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedFixturesDir } from '../common/paths';

export interface SeedCaption {
  /** Two-digit position in the gallery, as the issue names them: "01" .. "41". */
  n: string;
  raw: string;
  /** The caption with its credit tail and story reference removed (a stand-in for cleanCaption). */
  cleaned: string;
}

/**
 * The seed gallery under issue 12's meaning: a cluster is the same caption text however resent,
 * whichever photo it is on. The issue names 01/02/03/07/08/09/10/11 (one background paragraph,
 * the subject line changed), 04/05, and 33-38 (one paragraph, subject lines changed). The rest is
 * the same rule applied to the pairs the issue does not name: the same day's background
 * paragraph behind another subject line is the same caption: 12-15 (May 30, "Britain's Supreme
 * Court ruled..."), 24-26 (December 5), 32 with 33-38 (June 22), 40/41 (June 21), and 19/20/22/30
 * (Getty's "Mr Assange is appearing in court for his final [UK] appeal..." on February 1 and 2:
 * word for word the same text but for the date, "whistle-bowing" and "UK"). Another paragraph is
 * another caption (16 and 12, 21 and 23, 17 and 18).
 */
export const SEED_SAME_CAPTION: readonly (readonly string[])[] = [
  ['01', '02', '03', '07', '08', '09', '10', '11'],
  ['04', '05'],
  ['12', '13', '14', '15'],
  ['19', '20', '22', '30'],
  ['24', '25', '26'],
  ['32', '33', '34', '35', '36', '37', '38'],
  ['40', '41'],
];

export function seedLabel(n: string): string {
  const group = SEED_SAME_CAPTION.find((g) => g.includes(n));
  return `seed-${group ? group[0] : n}`;
}

// Everything from the first credit marker on is credit tail; "See PA story ..." is a desk note.
const CREDIT_TAIL = /\s*(?:Photo credit:|AFP PHOTO|\(Photo by|\(AP Photo)[\s\S]*$/i;
const STORY_REF = /\s*See PA story\b[^.]*\./g;

/** A deliberately small imitation of the real caption cleaner, enough for the seed's four agencies. */
export function simulateCleaning(raw: string): string {
  return raw.replace(CREDIT_TAIL, '').replace(STORY_REF, '').trim();
}

/**
 * The 41 gallery captions of seeds/wire-gallery-2012.txt. A gallery item is a title line ending
 * in a counter "(NN of41)" followed by its caption line.
 */
export function readSeedCaptions(
  file = path.join(sharedFixturesDir(), 'seeds', 'wire-gallery-2012.txt'),
): SeedCaption[] {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  const out: SeedCaption[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /\((\d+) of\s*\d+\)\s*$/.exec(lines[i]);
    if (!m) continue;
    const raw = lines[i + 1];
    if (raw === undefined || raw.trim() === '') {
      throw new Error(`${file}: gallery item (${m[1]}) on line ${i + 1} has no caption line after it`);
    }
    out.push({ n: m[1].padStart(2, '0'), raw, cleaned: simulateCleaning(raw) });
    i++;
  }
  return out;
}
