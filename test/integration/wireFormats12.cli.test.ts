import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { runCli } from '../helpers/cli';
import { assertBuilt } from '../helpers/processes';
import { deletePrefix, makeTmpDir, pipelineEnv, removeDir, uniquePrefix } from '../helpers/testEnv';
import { syntheticPhoto } from '../../src/sample/syntheticPhoto';
import { scaledMs } from '../helpers/deadline';

/**
 * `photowire run <file>` on the formats the wires still send (issue 28 item 2), as an operator runs
 * it: EFE's NewsML 1.2 item with the photo it names beside it, a UTF-16 copy of it, dpa's IPTC 7901
 * spool and AP's ANPA 1312 message (test/fixtures/wire-formats/ORIGIN.md). The records a desk reads
 * come out of `export --json`: real Redis, the built CLI.
 */
jest.setTimeout(scaledMs(180_000));

const WIRE = path.resolve(__dirname, '../fixtures/wire-formats');

interface Rec {
  agencyId: string | null;
  agencyVersion: string | null;
  caption: string;
  headline: string | null;
  error: { code: string } | null;
  location: { city: string | null; dateline: string | null } | null;
  iptc: Record<string, unknown>;
  image: unknown;
  source: { format: string };
}

describe('photowire run on NewsML 1.2, IPTC 7901, ANPA 1312 and UTF-16 XML', () => {
  const prefix = uniquePrefix('fmt12');
  const root = makeTmpDir('fmt12');
  const env = pipelineEnv(prefix, path.join(root, 'data'));

  const runAndExport = async (feed: string): Promise<{ code: number | null; records: Rec[]; json: any }> => {
    const run = await runCli(['run', feed, '--json'], env);
    const json = JSON.parse(run.stdout);
    const batchId = json.batches[0].batchId as string;
    const exported = await runCli(['export', batchId, '--json'], env);
    expect(exported.code).toBe(0);
    return { code: run.code, records: (JSON.parse(exported.stdout) as { records: Rec[] }).records, json };
  };

  beforeAll(async () => {
    assertBuilt();
    const efe = path.join(root, 'efe');
    mkdirSync(efe);
    copyFileSync(path.join(WIRE, 'efe-newsml12-photo.xml'), path.join(efe, 'item.xml'));
    // The largest rendition the item names, delivered beside it (the photo carries no metadata of its own).
    writeFileSync(
      path.join(efe, '20150923-11125521w.jpg'),
      await syntheticPhoto({ width: 800, height: 523, seed: 2015 }),
    );
    const utf16 = readFileSync(path.join(WIRE, 'efe-newsml12-photo.xml'), 'utf8').replace(
      'encoding="utf-8"',
      'encoding="UTF-16"',
    );
    writeFileSync(
      path.join(efe, 'item-utf16.xml'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(utf16, 'utf16le')]),
    );
    writeFileSync(
      path.join(root, 'dpa-spool.txt'),
      Buffer.concat([
        readFileSync(path.join(WIRE, 'dpa-iptc7901-two-line.txt')),
        readFileSync(path.join(WIRE, 'dpa-iptc7901-four-line.txt')),
      ]),
    );
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    removeDir(root);
  });

  it('NewsML 1.2 (EFE): a record per photo with the caption, headline, place, id and revision, rendered from the file beside the item', async () => {
    const { code, records } = await runAndExport(path.join(root, 'efe', 'item.xml'));
    expect(code).toBe(0);
    expect(records).toHaveLength(2);
    for (const r of records) {
      expect(r).toMatchObject({
        error: null,
        source: { format: 'newsml-1.2' },
        // The credit EFE writes at the end of the caption is read as the credit, as for any caption.
        caption: 'Agentes de bolsa realizan su trabajo en el parqué de Fráncfort, en Alemania.',
        credit: { raw: { captionTail: 'EFE/Archivo' }, agency: 'EFE' },
        headline: 'El DAX 30 de Fráncfort baja un 1,92 % al cierre',
        agencyVersion: '2',
        location: { city: 'Fráncfort' },
      });
      expect(r.agencyId).toMatch(/^urn:newsml:multimedia\.efeservicios\.com:20150924T180800\+0000:2721344:2#11125521/);
      expect(r.image).toMatchObject({ width: 800, height: 523 });
    }
    expect(records.map((r) => r.iptc.source)).toEqual(['Agencia EFE', 'AFP']);

    // The same item in UTF-16 gives the same captions, places and ids.
    const utf16 = await runAndExport(path.join(root, 'efe', 'item-utf16.xml'));
    expect(utf16.code).toBe(0);
    const essence = (r: Rec) => [r.caption, r.headline, r.location?.city, r.agencyId];
    expect(utf16.records.map(essence)).toEqual(records.map(essence));
  });

  it('IPTC 7901 (dpa spool of two messages): two caption-only records with headline, slug, priority, category and dateline', async () => {
    const { code, records } = await runAndExport(path.join(root, 'dpa-spool.txt'));
    expect(code).toBe(0);
    expect(
      records.map((r) => [r.error, r.image, r.headline, r.iptc.objectName, r.iptc.urgency, r.iptc.category]),
    ).toEqual([
      [null, null, 'Peace talks on Yemen to take place in Sweden next month, Mattis says', 'Yemen/conflict', '3', 'i'],
      [
        null,
        null,
        'Switzerland joins list of countries resisting UN migration pact',
        'Switzerland/migration/UN',
        '3',
        'i',
      ],
    ]);
    expect(records[0].caption).toMatch(/US Defence Secretary Jim Mattis says he expects the warring parties in Yemen/);
    expect(records[0].location).toMatchObject({ city: 'Washington' });
    expect(records[1].location).toMatchObject({ city: 'Geneva' });
    expect(records[1].caption).not.toMatch(/Editorial contacts|not intended for publication/);
  });

  it('ANPA 1312 (AP): a caption-only record with headline, by-line, slug and the story', async () => {
    const { code, records } = await runAndExport(path.join(WIRE, 'ap-anpa1312.tst'));
    expect(code).toBe(0);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      error: null,
      image: null,
      source: { format: 'anpa1312' },
      headline: 'For Argentine chemo patients, mirrors can hurt',
      iptc: {
        byline: ['PAUL BYRNE and ALMUDENA CALATRAVA'],
        objectName: 'Argentina-CancerB',
        urgency: 'f',
        category: 'l',
      },
      location: { city: 'BUENOS AIRES', country: 'Argentina' },
    });
    expect(records[0].caption).toMatch(/For cancer patients dealing with the physical and psychological trauma/);
  });
});
