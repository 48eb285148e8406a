import { formatDuration, formatRuns, formatStale } from '../../../src/app/runs/formatRuns';
import { finishRun, newRun } from '../../../src/core/runs/runRecord';
import { overdueBy, staleness, type SourceStatus } from '../../../src/core/runs/stale';
import { httpItemKey } from '../../../src/app/schedules/httpItemKey';
import type { FeedItem } from '../../../src/schemas/feedItem';

const H = 3_600_000;

describe('stale sources', () => {
  const base: SourceStatus = {
    kind: 'schedule',
    name: 'nightly',
    source: '/drop/afp',
    since: 0,
    lastNewAt: null,
    lastCheckAt: null,
  };

  it('a source that brought something recently is not stale', () => {
    expect(staleness({ ...base, lastNewAt: 20 * H, lastCheckAt: 25 * H }, 26 * H, 24).stale).toBe(false);
  });
  it('checked regularly but silent longer than the limit: stale, with how long', () => {
    const s = staleness({ ...base, lastNewAt: 1 * H, lastCheckAt: 30 * H }, 30.5 * H, 24);
    expect(s).toMatchObject({ stale: true, silentHours: 29.5 });
    expect(s.reason).toMatch(/nothing new for 29.5 h .*PHOTOWIRE_STALE_HOURS=24/);
  });
  it('never brought anything: silent since it was set up', () => {
    expect(staleness({ ...base, lastCheckAt: 25 * H }, 25 * H, 24).reason).toMatch(
      /nothing new for 25 h \(nothing taken yet/,
    );
  });
  it('a nightly schedule is not stale for running once a night; an overdue run says the scheduler is down', () => {
    expect(staleness({ ...base, lastNewAt: 10 * H, lastCheckAt: 10 * H }, 30 * H, 24).stale).toBe(false);
    expect(overdueBy(30 * H, 30 * H + 60_000)).toBeNull();
    expect(overdueBy(30 * H, 32 * H)).toBe(2 * H);
    expect(overdueBy(null, 32 * H)).toBeNull();
  });
  it('no watcher has looked at a hot folder for longer than the limit: the watcher is down', () => {
    const s = staleness({ ...base, kind: 'watch', name: '/drop', lastNewAt: 1 * H, lastCheckAt: 2 * H }, 40 * H, 24);
    expect(s.stale).toBe(true);
    expect(s.reason).toMatch(/hot folder not checked for over 24 h .*photowire watch running/);
  });
});

describe('runs table', () => {
  it('one line per run with its counts; a run that found nothing says so', () => {
    const start = new Date(2026, 10, 30, 2, 0, 0);
    const done = finishRun(
      newRun({ id: 'r1', schedule: 'nightly', source: '/drop/afp', trigger: 'schedule', startedAt: start }),
      'done',
      new Date(start.getTime() + 12_300),
      {
        files: 3,
        items: 41,
        ok: 40,
        duplicates: 3,
        failed: 1,
        batchId: 'nightly-afp-0123456789ab',
      },
    );
    const empty = finishRun(
      newRun({ id: 'r2', schedule: 'nightly', source: '/drop/afp', trigger: 'schedule', startedAt: start }),
      'empty',
      start,
      { note: 'nothing new since the last run' },
    );
    const out = formatRuns([done, empty]).split('\n');
    expect(out[0]).toMatch(
      /^schedule\s+start\s+duration\s+files\s+items\s+ok\s+dup\s+failed\s+state\s+batch\s+source$/,
    );
    expect(out[1]).toMatch(
      /^nightly\s+2026-11-30 02:00:00\s+12.3 s\s+3\s+41\s+40\s+3\s+1\s+done\s+nightly-afp-0123456789ab\s+\/drop\/afp$/,
    );
    expect(out[2]).toMatch(/empty/);
    expect(out[3]).toBe('    nothing new since the last run');
    expect(formatRuns([])).toBe('no runs yet');
    expect(formatDuration(3 * H + 60_000)).toBe('3 h 1 min');
  });

  it('stale lines name the source', () => {
    const status: SourceStatus = {
      kind: 'schedule',
      name: 'nightly',
      source: '/drop/afp',
      since: 0,
      lastNewAt: null,
      lastCheckAt: 30 * H,
    };
    expect(formatStale([{ status, staleness: staleness(status, 30 * H, 24) }])).toEqual([
      expect.stringMatching(/^STALE schedule nightly \(\/drop\/afp\): nothing new for 30 h/),
    ]);
  });
});

describe('recognising HTTP feed items between runs', () => {
  const item = (over: Partial<FeedItem>): FeedItem => ({
    source: { file: 'http://x/f.xml', position: 0, format: 'newsml-g2' },
    captionRaw: 'c',
    iptc: {},
    image: 'http://x/p.jpg',
    ...over,
  });
  it('by agency id; a new version is new, a repeat is not', () => {
    const v3 = httpItemKey(item({ agencyId: 'tag:a,1', agencyVersion: '3' }));
    expect(v3).toEqual({ key: 'id:tag:a,1', signature: 'v:3' });
    expect(
      httpItemKey(
        item({ agencyId: 'tag:a,1', agencyVersion: '3', source: { file: 'x', position: 7, format: 'nitf' } }),
      ),
    ).toEqual(v3);
    expect(httpItemKey(item({ agencyId: 'tag:a,1', agencyVersion: '4' })).signature).toBe('v:4');
  });
  it('without an id, by image URL with its content; failing both, by content', () => {
    const a = httpItemKey(item({}));
    expect(a.key).toBe('image:http://x/p.jpg');
    expect(httpItemKey(item({ captionRaw: 'corrected' })).signature).not.toBe(a.signature);
    expect(httpItemKey(item({ image: null })).key).toMatch(/^item:/);
  });
});
