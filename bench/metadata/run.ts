/**
 * photowire's IPTC/XMP reader (src/core/metadata/readImageMetadata.ts) against exifr, with ExifTool as
 * the reference, on every image fixture (wire images, real-wire TIFF/PNG/JPEG, generated edge cases)
 * and on two charset cases made here (IIM in Windows-1252 without 1:90, IIM in UTF-8 with 1:90):
 *
 *   npm run bench:metadata [-- --rounds 7 --reps 20]
 *
 * - speed: microseconds per file, the fastest of `rounds` rounds, each the mean of `reps` reads;
 * - fields read: per field (headline, caption, creator, credit, source, copyright, city, country,
 *   date created, keywords, special instructions) and per source (IIM, XMP), in how many files a
 *   reader's value equals ExifTool's (`exiftool -j -a -G1 -charset iptc=Latin`, mapped by
 *   test/fixtures/exiftool/mapExiftool.js; a field both leave out agrees);
 * - charset: of the IIM text values that are not plain ASCII, how many each reader decodes as ExifTool does.
 *
 * exifr's raw output is mapped to the same fields with the same date rules (bench/metadata/exifrFields.ts),
 * the adapter a swap would need. Writes a table and bench/results/metadata-<time>.json.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import { buildIimBlock, insertIptcIntoJpeg, readImageMetadataBySource } from '../../src/core/metadata';
import type { IptcFields } from '../../src/schemas/feedItem';
import { repoRoot, removeDir, scratchDir, sharedFixturesDir } from '../common/paths';
import { fixed, formatTable, machineInfo, machineLine, writeResults } from '../common/report';
import type * as MapExiftool from '../../test/fixtures/exiftool/mapExiftool';
import { EXIFR_OPTIONS, exifrFields, FIELDS, type Field } from './exifrFields';

interface Args {
  rounds: number;
  reps: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { rounds: 7, reps: 20 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = Number(argv[i + 1]);
    if ((a === '--rounds' || a === '--reps') && Number.isInteger(v) && v > 0) {
      args[a === '--rounds' ? 'rounds' : 'reps'] = v;
      i++;
    } else if (a === '--quick') {
      args.rounds = 3;
      args.reps = 5;
    } else {
      throw new Error(`bench metadata: unknown or bad option ${a} (known: --rounds N, --reps N, --quick)`);
    }
  }
  return args;
}

const imagesIn = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => /\.(jpe?g|tiff?|png|webp)$/i.test(f))
        .sort()
        .map((f) => path.join(dir, f))
    : [];

/** Two IIM charset cases ExifTool and both readers see: Windows-1252 without 1:90, UTF-8 declared by 1:90. */
async function charsetCases(dir: string): Promise<string[]> {
  const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
  const cases: Array<[string, IptcFields, boolean]> = [
    [
      'charset-cp1252-no-1-90.jpg',
      {
        headline: 'Café – €5 entry',
        caption: 'Zürich: Ærø and Straße',
        byline: ['José Müller'],
        city: 'Zürich',
        country: 'Österreich',
        keywords: ['Fußball', 'naïve'],
      },
      false,
    ],
    [
      'charset-utf8-1-90.jpg',
      {
        headline: 'Łódź — 東京',
        caption: 'Zürich: Αθήνα and Kraków',
        byline: ['Paweł Żuk'],
        city: 'Kraków',
        country: 'Ελλάδα',
        keywords: ['Fußball', 'Москва'],
      },
      true,
    ],
  ];
  return cases.map(([name, fields, utf8]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, insertIptcIntoJpeg(jpeg, buildIimBlock(fields, { utf8 })));
    return file;
  });
}

type Source = 'iim' | 'xmp';
type Cell = { exiftool: unknown; ours: unknown; exifr: unknown };
interface PerFile {
  group: string;
  name: string;
  file: string;
  bytes: number;
  oursUs: number;
  exifrUs: number;
  exifrError: string | null;
  fields: Record<Source, Record<Field, Cell>>;
  oursMergedAgrees: Record<string, boolean>;
}
const SOURCES: Source[] = ['iim', 'xmp'];
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const nonAscii = (v: unknown) => /[^\x00-\x7f]/.test(JSON.stringify(v ?? '').replace(/\\u[0-9a-f]{4}/gi, 'é'));

function minMicros(rounds: number, reps: number, once: () => unknown): number {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) once();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e3 / reps);
  }
  return best;
}

async function minMicrosAsync(rounds: number, reps: number, once: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < reps; i++) await once().catch(() => undefined);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e3 / reps);
  }
  return best;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const startedAt = new Date();
  const root = repoRoot();
  const mapper = require(path.join(root, 'test/fixtures/exiftool/mapExiftool.js')) as typeof MapExiftool;
  const shared = sharedFixturesDir();
  const scratch = scratchDir('metadata');
  try {
    const groups: Array<[string, string[]]> = [
      ['wire-images', imagesIn(path.join(shared, 'fixtures', 'wire-images'))],
      ['real-wire', imagesIn(path.join(root, 'test/fixtures/real-wire/images'))],
      ['generated', imagesIn(path.join(root, 'test/fixtures/real-wire/generated'))],
      ['charset', await charsetCases(scratch)],
    ];
    const files = groups.flatMap(([group, list]) => list.map((file) => ({ group, file, name: path.basename(file) })));
    const exiftoolVersion = execFileSync('exiftool', ['-ver'], { encoding: 'utf8' }).trim();
    const run = (argv: string[]) =>
      execFileSync('exiftool', [...argv, ...files.map((f) => f.file)], {
        encoding: 'utf8',
        maxBuffer: 256 * 1024 * 1024,
      });
    const reference = mapper.mapExiftoolJson(
      run(mapper.EXIFTOOL_ARGS),
      run(mapper.EXIFTOOL_MWG_ARGS),
      run(mapper.EXIFTOOL_EXIF_ARGS),
    );

    const perFile: PerFile[] = [];
    for (const f of files) {
      const bytes = fs.readFileSync(f.file);
      const want = reference[f.name];
      if (!want) throw new Error(`ExifTool said nothing about ${f.file}`);
      const ours = readImageMetadataBySource(bytes);
      let exifrError: string | null = null;
      let theirs: { iim: IptcFields; xmp: IptcFields } = { iim: {}, xmp: {} };
      try {
        theirs = exifrFields(await exifr.parse(bytes, EXIFR_OPTIONS));
      } catch (err) {
        exifrError = (err as Error).message;
      }
      const oursUs = minMicros(args.rounds, args.reps, () => readImageMetadataBySource(bytes));
      const exifrUs = await minMicrosAsync(args.rounds, args.reps, () => exifr.parse(bytes, EXIFR_OPTIONS));
      const fields = {} as Record<Source, Record<Field, Cell>>;
      for (const s of SOURCES) {
        fields[s] = {} as Record<Field, Cell>;
        for (const k of FIELDS) fields[s][k] = { exiftool: want[s][k], ours: ours.bySource[s][k], exifr: theirs[s][k] };
      }
      const merged = Object.fromEntries(FIELDS.map((k) => [k, same(ours.iptc[k], want.merged[k])]));
      perFile.push({
        ...f,
        file: path.relative(root, f.file).startsWith('..') ? f.name : path.relative(root, f.file),
        bytes: bytes.length,
        oursUs,
        exifrUs,
        exifrError,
        fields,
        oursMergedAgrees: merged,
      });
    }

    // speed
    process.stdout.write(
      `\nmetadata bench: ${files.length} images, ExifTool ${exiftoolVersion}, exifr ${exifrVersion(root)}; ${machineLine(machineInfo())}\n`,
    );
    process.stdout.write(`speed: microseconds per file, fastest of ${args.rounds} rounds of ${args.reps} reads\n\n`);
    const speedRows = perFile.map((p) => [
      p.group,
      p.name,
      p.bytes,
      fixed(p.oursUs, 1),
      fixed(p.exifrUs, 1),
      p.exifrError ? `exifr: ${p.exifrError.slice(0, 50)}` : '',
    ]);
    process.stdout.write(`${formatTable(['group', 'file', 'bytes', 'photowire us', 'exifr us', 'note'], speedRows)}\n`);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const totals = { oursUs: sum(perFile.map((p) => p.oursUs)), exifrUs: sum(perFile.map((p) => p.exifrUs)) };
    process.stdout.write(
      `all files: photowire ${totals.oursUs.toFixed(0)} us, exifr ${totals.exifrUs.toFixed(0)} us (x${(totals.exifrUs / totals.oursUs).toFixed(2)})\n`,
    );

    // fields
    const agreement: Record<string, Record<Source, { ours: number; exifr: number; present: number }>> = {};
    for (const k of FIELDS) {
      agreement[k] = {} as Record<Source, { ours: number; exifr: number; present: number }>;
      for (const s of SOURCES) {
        const cells = perFile.map((p) => p.fields[s][k]);
        agreement[k][s] = {
          present: cells.filter((c) => c.exiftool !== undefined).length,
          ours: cells.filter((c) => same(c.ours, c.exiftool)).length,
          exifr: cells.filter((c) => same(c.exifr, c.exiftool)).length,
        };
      }
    }
    const n = perFile.length;
    process.stdout.write(
      `\nfields read: files (of ${n}) where the value equals ExifTool's; "has" = files where ExifTool finds one\n\n`,
    );
    const fieldRows = FIELDS.map((k) => [
      k,
      agreement[k].iim.present,
      `${agreement[k].iim.ours}/${n}`,
      `${agreement[k].iim.exifr}/${n}`,
      agreement[k].xmp.present,
      `${agreement[k].xmp.ours}/${n}`,
      `${agreement[k].xmp.exifr}/${n}`,
      `${perFile.filter((p) => p.oursMergedAgrees[k]).length}/${n}`,
    ]);
    process.stdout.write(
      `${formatTable(['field', 'IIM has', 'IIM photowire', 'IIM exifr', 'XMP has', 'XMP photowire', 'XMP exifr', 'merged photowire'], fieldRows)}\n`,
    );

    // charset: IIM values outside ASCII
    const charset = { values: 0, ours: 0, exifr: 0, files: new Set<string>() };
    for (const p of perFile) {
      for (const k of FIELDS) {
        const c = p.fields.iim[k];
        if (c.exiftool === undefined || !nonAscii(c.exiftool)) continue;
        charset.values++;
        charset.files.add(p.name);
        if (same(c.ours, c.exiftool)) charset.ours++;
        if (same(c.exifr, c.exiftool)) charset.exifr++;
      }
    }
    process.stdout.write(
      `\ncharset: ${charset.values} IIM values outside ASCII in ${charset.files.size} files (1:90 UTF-8 and Windows-1252 without 1:90): photowire decodes ${charset.ours}, exifr ${charset.exifr} as ExifTool does\n`,
    );
    const misses = perFile.flatMap((p) =>
      SOURCES.flatMap((s) =>
        FIELDS.filter(
          (k) =>
            !same(p.fields[s][k].exifr, p.fields[s][k].exiftool) || !same(p.fields[s][k].ours, p.fields[s][k].exiftool),
        ).map((k) => ({ file: p.name, source: s, field: k, ...p.fields[s][k] })),
      ),
    );
    const oursMisses = misses.filter((m) => !same(m.ours, m.exiftool));
    process.stdout.write(
      `disagreements: photowire ${oursMisses.length}, exifr ${misses.filter((m) => !same(m.exifr, m.exiftool)).length} (listed in the JSON)\n`,
    );
    for (const m of oursMisses)
      process.stdout.write(
        `  photowire ${m.file} ${m.source}.${m.field}: ${JSON.stringify(m.ours)} (ExifTool ${JSON.stringify(m.exiftool)})\n`,
      );

    // Where the rule deliberately differs from MWG (ExifTool's -use MWG composites), and why.
    const MWG_FIELDS = [
      'caption',
      'byline',
      'copyright',
      'keywords',
      'city',
      'state',
      'country',
      'dateCreated',
    ] as const;
    const deliberate: Array<{ file: string; field: string; photowire: unknown; mwg: unknown; why: string }> = [];
    for (const f of files) {
      const want = reference[f.name];
      const got = readImageMetadataBySource(fs.readFileSync(f.file));
      for (const k of MWG_FIELDS) {
        if (want.mwg[k] === undefined || same(got.iptc[k], want.mwg[k])) continue;
        const exif = want.exif[k];
        const iptc = want.xmp[k] ?? want.iim[k];
        let why = 'other';
        if (got.iptc[k] === undefined) why = 'camera/software default dropped';
        else if (
          k === 'dateCreated' &&
          (want.exif.dateCreated !== undefined || /^"0000/.test(JSON.stringify(want.mwg[k])))
        )
          why = 'EXIF date zeroed or after the transmission';
        else if (
          k === 'keywords' &&
          Array.isArray(got.iptc.keywords) &&
          Array.isArray(iptc) &&
          got.iptc.keywords.length > iptc.length &&
          got.iptc.keywords.join(', ').startsWith(String(iptc[0]).split(/[;,]/)[0])
        )
          why = 'joined keywords split';
        else if (k !== 'dateCreated' && exif !== undefined && same(want.mwg[k], exif) && iptc !== undefined)
          why = 'IPTC before a different EXIF text';
        else if (want.digest === 'no-digest') why = 'IIM before XMP without a digest';
        else if (/\?/.test(JSON.stringify(want.mwg[k]))) why = 'EXIF bytes read as Windows-1252';
        deliberate.push({ file: f.name, field: k, photowire: got.iptc[k], mwg: want.mwg[k], why });
      }
    }
    const mergedAgree = perFile.filter((p) => FIELDS.every((k) => p.oursMergedAgrees[k])).length;
    process.stdout.write(
      `\nthe rule (src/core/metadata/mergeIimXmp.ts) applied to ExifTool's own IIM/XMP/EXIF values: photowire agrees in ${mergedAgree} of ${n} files on every field\n`,
    );
    process.stdout.write(
      `deliberate differences from MWG: ${deliberate.length} values in ${new Set(deliberate.map((d) => d.file)).size} files\n\n`,
    );
    const cut = (v: unknown) => (v === undefined ? '-' : JSON.stringify(v).slice(0, 40));
    process.stdout.write(
      `${formatTable(
        ['file', 'field', 'why', 'photowire', 'MWG'],
        deliberate.map((d) => [d.file, d.field, d.why, cut(d.photowire), cut(d.mwg)]),
      )}\n`,
    );

    const out = writeResults(
      'metadata',
      {
        startedAt: startedAt.toISOString(),
        args,
        machine: machineInfo(),
        exiftoolVersion,
        exifrVersion: exifrVersion(root),
        files: n,
        totals,
        agreement,
        deliberateDifferencesFromMwg: deliberate,
        charset: { ...charset, files: [...charset.files] },
        perFile: perFile.map(({ fields: _f, ...rest }) => rest),
        disagreements: misses,
      },
      startedAt,
    );
    process.stdout.write(`\nresults: ${out}\n`);
  } finally {
    removeDir(scratch);
  }
}

function exifrVersion(root: string): string {
  return (
    JSON.parse(fs.readFileSync(path.join(root, 'node_modules/exifr/package.json'), 'utf8')) as { version: string }
  ).version;
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
