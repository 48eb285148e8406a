import { dayFolder, errorReport, freeName, outcomeDir } from '../../../../src/app/hotFolder/destination';

describe('where a taken file goes', () => {
  it('a dated folder per day, in local time', () => {
    expect(dayFolder(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(outcomeDir('/drop', 'processed', new Date(2026, 10, 30, 2, 0))).toBe('/drop/processed/2026-11-30');
    expect(outcomeDir('/drop', 'failed', new Date(2026, 10, 30, 2, 0))).toBe('/drop/failed/2026-11-30');
  });

  it('never overwrites an earlier file of the same name', () => {
    const taken = new Set(['photo.jpg', 'photo-2.jpg', 'gallery']);
    expect(freeName('photo.jpg', (n) => taken.has(n))).toBe('photo-3.jpg');
    expect(freeName('gallery', (n) => taken.has(n))).toBe('gallery-2');
    expect(freeName('feed.xml', (n) => taken.has(n))).toBe('feed.xml');
    expect(freeName('.hidden', (n) => n === '.hidden')).toBe('.hidden-2');
  });

  it('the error report names the file, where it went and why', () => {
    const r = JSON.parse(
      errorReport(
        '/drop/x.xml',
        '/drop/failed/2026-11-30/x.xml',
        { code: 'FEED_MALFORMED', message: 'bad XML' },
        new Date('2026-11-30T10:00:00Z'),
      ),
    );
    expect(r).toEqual({
      file: '/drop/x.xml',
      movedTo: '/drop/failed/2026-11-30/x.xml',
      code: 'FEED_MALFORMED',
      message: 'bad XML',
      at: '2026-11-30T10:00:00.000Z',
    });
  });
});
