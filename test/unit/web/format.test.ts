import type { CatalogRecord } from '../../../src/schemas/record';
import { loadWebModule } from './loadWebModule';
import { record } from './records';

const f = loadWebModule<{
  formatCount(n: number): string;
  plural(n: number, one: string, many?: string): string;
  formatDuration(ms: number | null): string;
  dayLabel(iso: string, now: Date): string;
  groupByDay<T>(items: T[], dateOf: (t: T) => string, now: Date): Array<{ label: string; items: T[] }>;
  progressOf(b: { expected: number; ok: number; failed: number; state: string }): {
    done: number;
    total: number;
    pct: number;
    label: string;
  };
  feedName(p: string): string;
  creditLine(r: CatalogRecord): string;
  rawCreditParts(r: CatalogRecord): Array<{ label: string; value: string }>;
  rawCreditText(r: CatalogRecord): string;
  renditionUrl(r: CatalogRecord, name?: string): string | null;
  errorLabel(code: string): string;
  itemNumber(r: CatalogRecord): string;
}>('lib/format.js');

describe('desk formatting', () => {
  it('writes counts, plurals and durations for people', () => {
    expect(f.formatCount(12345)).toBe('12,345');
    expect(f.plural(1, 'item')).toBe('1 item');
    expect(f.plural(3, 'batch', 'batches')).toBe('3 batches');
    expect(f.formatDuration(333)).toBe('333 ms');
    expect(f.formatDuration(1900)).toBe('1.9 s');
    expect(f.formatDuration(81_000)).toBe('1 min 21 s');
    expect(f.formatDuration(3_720_000)).toBe('1 h 02 min');
    expect(f.formatDuration(null)).toBe('');
  });

  it('labels days relative to now and groups a newest-first list under them', () => {
    const now = new Date(2026, 10, 30, 22, 0);
    expect(f.dayLabel(new Date(2026, 10, 30, 0, 5).toISOString(), now)).toBe('Today');
    expect(f.dayLabel(new Date(2026, 10, 29, 23, 59).toISOString(), now)).toBe('Yesterday');
    expect(f.dayLabel(new Date(2026, 10, 23, 12, 0).toISOString(), now)).toBe('Monday 23 November');
    const items = [new Date(2026, 10, 30, 21), new Date(2026, 10, 30, 8), new Date(2026, 10, 29, 20)].map((d) => ({
      at: d.toISOString(),
    }));
    expect(f.groupByDay(items, (i) => i.at, now).map((g) => [g.label, g.items.length])).toEqual([
      ['Today', 2],
      ['Yesterday', 1],
    ]);
  });

  it('measures progress as ended items (ok or failed) of expected', () => {
    expect(f.progressOf({ expected: 40, ok: 10, failed: 3, state: 'running' })).toEqual({
      done: 13,
      total: 40,
      pct: 32,
      label: '13 of 40 items',
    });
    expect(f.progressOf({ expected: 0, ok: 0, failed: 0, state: 'done' }).pct).toBe(100);
    expect(f.progressOf({ expected: 0, ok: 0, failed: 0, state: 'queued' }).pct).toBe(0);
  });

  it('shows the normalized credit line, and the raw credit as sent', () => {
    const r = record(0, {
      credit: {
        line: 'Leon Neal/AFP via Getty Images',
        creators: ['Leon Neal'],
        agency: 'AFP',
        raw: {
          captionTail: 'AFP PHOTO / LEON NEAL',
          byline: ['LEON NEAL'],
          creditLine: 'AFP/Getty Images',
          source: null,
          copyright: ' ',
        },
      },
    });
    expect(f.creditLine(r)).toBe('Leon Neal/AFP via Getty Images');
    expect(f.rawCreditParts(r)).toEqual([
      { label: 'Caption credit', value: 'AFP PHOTO / LEON NEAL' },
      { label: 'By-line', value: 'LEON NEAL' },
      { label: 'Credit', value: 'AFP/Getty Images' },
    ]);
    expect(f.rawCreditText(r)).toBe(
      'Raw credit: Caption credit: AFP PHOTO / LEON NEAL · By-line: LEON NEAL · Credit: AFP/Getty Images',
    );
    expect(f.creditLine(record(1, { credit: { creators: ['J. Smith'], agency: null } }))).toBe('J. Smith');
    expect(f.creditLine(record(2))).toBe('No credit');
    expect(f.rawCreditText(record(2))).toBe('No raw credit was sent');
  });

  it('points a rendition at the API, and has none for caption-only items', () => {
    const sha = 'ab'.repeat(32);
    const r = record(0, {
      renditions: [
        {
          name: 'thumb',
          path: `renditions/ab/ab/${sha}/thumb.webp`,
          width: 400,
          height: 267,
          format: 'webp',
          bytes: 100,
        },
      ],
    });
    expect(f.renditionUrl(r, 'thumb')).toBe(`/api/renditions/ab/ab/${sha}/thumb.webp`);
    expect(f.renditionUrl(r, 'preview')).toBeNull();
    expect(f.renditionUrl(record(1))).toBeNull();
  });

  it('names errors, feeds and items the way the desk shows them', () => {
    expect(f.errorLabel('IMAGE_CORRUPT')).toBe('Image corrupt');
    expect(f.errorLabel('SOMETHING_NEW')).toBe('SOMETHING_NEW');
    expect(f.feedName('/drop/afp/wire-gallery-2012.txt')).toBe('wire-gallery-2012.txt');
    expect(f.feedName('/data/uploads/3fa9c0d1e2f3a4b5')).toBe('Uploaded photos 3fa9c0');
    expect(f.feedName('/data/uploads/3fa9c0d1e2f3a4b5/gallery.txt')).toBe('gallery.txt');
    expect(f.itemNumber(record(6))).toBe('#07');
    expect(f.itemNumber(record(11, { source: { file: 'x', position: 11, format: 'image' } }))).toBe('#12');
  });
});
