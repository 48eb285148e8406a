/**
 * The labelled set for caption clusters: real captions of this repository (the seed
 * gallery, the real-wire and wire-image fixtures, the feed fixtures: bench/dedup/realCaptions.json),
 * each resent with the edits wires make (bench/dedup/wireEdits.ts), plus negatives: captions of
 * different stories written in one house template (same agency, same city and date, different
 * event). Everything is cleaned by the real caption cleaner (src/core/captions/cleanCaption.ts).
 *
 * Build and write the committed copy (deterministic, seed 12):
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/dedup/labelledSet.js --write
 * which writes test/fixtures/dedup/labelled.json.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanCaption } from '../../src/core/captions/cleanCaption';
import { hashString32 } from '../../src/core/dedup/hash32';
import {
  BUILDINGS,
  CITIES,
  COUNTRIES,
  DAYS,
  fill,
  FIRST,
  LAST,
  MONTHS,
  pick,
  prng,
  ROLES,
  STORY,
  storyCast,
  SUBJECTS,
  VERBS,
} from './generateCaptions';
import { repoRoot } from '../common/paths';
import { readSeedCaptions, seedLabel as seedFamily } from './seedCaptions';
import { applyEdit, EDIT_KINDS, type EditKind } from './wireEdits';

export type LabelledKind = 'base' | 'negative' | EditKind;

export interface LabelledCaption {
  id: string;
  /** Captions of one family are the same caption as far as the desk is concerned. */
  family: string;
  kind: LabelledKind;
  /** For an edit: the id of the caption it was made from. */
  of: string | null;
  raw: string;
  /** raw through cleanCaption(), computed when the set is read (the live cleaner), not stored. */
  cleaned: string;
}

export interface LabelledSet {
  note: string;
  seed: number;
  captions: LabelledCaption[];
}

interface RealCaption {
  id: string;
  origin: string;
  raw: string;
}

export function readRealCaptions(file = path.join(repoRoot(), 'bench', 'dedup', 'realCaptions.json')): RealCaption[] {
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { captions: RealCaption[] }).captions;
}

const clean = (raw: string) => cleanCaption(raw).caption;

/** Variants per base caption and edit kind (different random choices each). */
const PER_KIND = 3;

function houseTemplate(
  r: () => number,
  agency: number,
  city: string,
  country: string,
  month: string,
  day: number,
  weekday: string,
  event: string,
  background: string,
  name: string,
): string {
  const y = 2012;
  switch (agency) {
    case 0:
      return `${city.toUpperCase()}, ${country.toUpperCase()} - ${month.toUpperCase()} ${day}: ${event} on ${month} ${day}, ${y} in ${city}, ${country}. ${background} (Photo by ${name}/Getty Images)`;
    case 1:
      return `${event}, in ${city}, ${weekday}, ${month} ${day}, ${y}. ${background} (AP Photo/${name})`;
    case 2:
      return `${event} in ${city}, ${country} ${month} ${day}, ${y}. ${background} REUTERS/${name}`;
    case 3:
      return `${event} in ${city} on ${month} ${day}, ${y}. ${background} AFP PHOTO / ${name.toUpperCase()}`;
    default:
      return `${event}, ${city}, ${weekday} ${month} ${day}, ${y}. ${background} Photo credit: ${name}/PA`;
  }
}

/**
 * Negatives: groups of captions from one agency, city and day about different events, each
 * with its own subject, action, place and background sentence. No two are the same caption.
 */
function negatives(r: () => number, groups: number, perGroup: number): Array<{ id: string; raw: string }> {
  const out: Array<{ id: string; raw: string }> = [];
  for (let g = 0; g < groups; g++) {
    const agency = g % 5;
    const city = pick(r, CITIES);
    const country = pick(r, COUNTRIES);
    const month = pick(r, MONTHS);
    const day = 1 + Math.floor(r() * 28);
    const weekday = pick(r, DAYS);
    for (let k = 0; k < perGroup; k++) {
      const who = `${pick(r, ROLES)} ${pick(r, FIRST)} ${pick(r, LAST)}`;
      const subj = pick(r, SUBJECTS);
      const verb = pick(r, VERBS);
      const plural = r() < 0.5;
      const event = `${(plural ? subj[1] : subj[0]).replace('{who}', who)} ${plural ? verb[1] : verb[0]} ${pick(r, BUILDINGS)}`;
      const background = fill(r, pick(r, STORY), who, storyCast(r, who));
      const name = `${pick(r, FIRST)} ${pick(r, LAST)}`;
      out.push({
        id: `neg-${g}-${k}`,
        raw: houseTemplate(r, agency, city, country, month, day, weekday, event, background, name),
      });
    }
  }
  return out;
}

export function buildLabelledSet(seed = 12): LabelledSet {
  const r = prng(seed);
  // Each original's edits have their own random stream, so a change in how one caption is cleaned
  // changes only that caption's edits.
  const rOf = (id: string) => prng(hashString32(`${seed}:${id}`));
  const bases: Array<{ id: string; family: string; raw: string }> = [
    ...readSeedCaptions().map((s) => ({ id: `seed-${s.n}`, family: seedFamily(s.n), raw: s.raw })),
    ...readRealCaptions().map((c) => ({ id: c.id, family: c.id, raw: c.raw })),
  ];
  const captions: LabelledCaption[] = [];
  for (const b of bases)
    captions.push({ id: b.id, family: b.family, kind: 'base', of: null, raw: b.raw, cleaned: clean(b.raw) });
  for (const n of negatives(r, 60, 4))
    captions.push({ id: n.id, family: n.id, kind: 'negative', of: null, raw: n.raw, cleaned: clean(n.raw) });
  // Edits arrive after every original, in a shuffled order, as corrections and resends do.
  const edits: LabelledCaption[] = [];
  for (const b of bases) {
    const c = cleanCaption(b.raw);
    const rb = rOf(b.id);
    for (const kind of EDIT_KINDS) {
      for (let v = 0; v < PER_KIND; v++) {
        const raw = applyEdit(rb, kind, c.caption, c.creditTail);
        if (raw === null) continue;
        edits.push({ id: `${b.id}~${kind}~${v}`, family: b.family, kind, of: b.id, raw, cleaned: clean(raw) });
      }
    }
  }
  for (let i = edits.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [edits[i], edits[j]] = [edits[j], edits[i]];
  }
  captions.push(...edits);
  return {
    note: 'Generated by bench/dedup/labelledSet.ts (seed 12) from real captions of this repository; see docs/DEDUP.md. Do not edit by hand: rebuild.',
    seed,
    captions,
  };
}

export const LABELLED_FIXTURE = () => path.join(repoRoot(), 'test', 'fixtures', 'dedup', 'labelled.json');

/** The committed set, each caption cleaned by the caption cleaner as it is now. */
export function readLabelledSet(file = LABELLED_FIXTURE()): LabelledSet {
  const set = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    note: string;
    seed: number;
    captions: Array<Omit<LabelledCaption, 'cleaned'>>;
  };
  return { ...set, captions: set.captions.map((c) => ({ ...c, cleaned: clean(c.raw) })) };
}

/** What the fixture stores: everything but the cleaned text. */
export function storedForm(set: LabelledSet): {
  note: string;
  seed: number;
  captions: Array<Omit<LabelledCaption, 'cleaned'>>;
} {
  return { note: set.note, seed: set.seed, captions: set.captions.map(({ cleaned: _c, ...rest }) => rest) };
}

if (require.main === module) {
  const set = buildLabelledSet();
  if (process.argv.includes('--write')) {
    fs.mkdirSync(path.dirname(LABELLED_FIXTURE()), { recursive: true });
    fs.writeFileSync(LABELLED_FIXTURE(), `${JSON.stringify(storedForm(set), null, 1)}\n`);
    console.log(`wrote ${path.relative(process.cwd(), LABELLED_FIXTURE())}: ${set.captions.length} captions`);
  } else {
    const byKind = new Map<string, number>();
    for (const c of set.captions) byKind.set(c.kind, (byKind.get(c.kind) ?? 0) + 1);
    console.log(`${set.captions.length} captions`, Object.fromEntries(byKind));
  }
}
