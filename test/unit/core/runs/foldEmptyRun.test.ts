import { foldEmptyRun, foldsInto, stretchLabel } from '../../../../src/core/runs/foldEmptyRun';
import { formatOverdue, formatRuns } from '../../../../src/app/runs/formatRuns';
import { finishRun, newRun, type RunRecord } from '../../../../src/core/runs/runRecord';
import { emptyRunNote } from '../../../../src/app/schedules/emptyRunNote';
import { scheduledBatchId, scheduledFeedName } from '../../../../src/app/schedules/runName';
import { loadWebModule } from '../../web/loadWebModule';

const web = loadWebModule<{ runText(r: RunRecord): string }>('ui/batchList.js');

/** Local-time ISO of today at hh:mm (the table and the sidebar print local time). */
const at = (hh: number, mm: number) => {
  const d = new Date();
  d.setHours(hh, mm, 0, 0);
  return d;
};
const emptyRun = (id: string, start: Date, note = 'nothing new since the last run') =>
  finishRun(
    newRun({ id, schedule: 'afp-nightly', source: '/import/afp', trigger: 'schedule', startedAt: start }),
    'empty',
    new Date(start.getTime() + 200),
    { note },
  );

describe('empty runs fold into one row per stretch', () => {
  it('an empty run folds into an empty row of its schedule, never into a run that took something, nor a hot-folder run', () => {
    const first = emptyRun('r1', at(2, 0));
    const second = emptyRun(
      'r2',
      at(2, 1),
      'nothing new since the last run (02:00); 1 file still being written (a.jpg)',
    );
    const done = finishRun(
      newRun({ id: 'r0', schedule: 'afp-nightly', source: '/import/afp', trigger: 'schedule', startedAt: at(1, 0) }),
      'done',
      at(1, 1),
      { batchId: 'b', files: 2 },
    );
    expect(foldsInto(first, second)).toBe(true);
    expect(foldsInto(done, second)).toBe(false);
    expect(foldsInto(null, second)).toBe(false);
    expect(foldsInto({ ...first, schedule: 'watch' }, { ...second, schedule: 'watch' })).toBe(false);
    const row = foldEmptyRun(first, second);
    expect(row).toMatchObject({
      id: 'r1',
      startedAt: first.startedAt,
      checks: 2,
      lastAt: second.startedAt,
      note: second.note,
      state: 'empty',
    });
    expect(foldEmptyRun(row, emptyRun('r3', at(2, 2))).checks).toBe(3);
  });

  it('photowire runs shows the stretch as "no new files since 02:00, 57 checks", and each run\'s batch id', () => {
    const row: RunRecord = { ...emptyRun('r1', at(2, 0)), checks: 57, lastAt: at(2, 56).toISOString() };
    const done = finishRun(
      newRun({ id: 'r0', schedule: 'afp-nightly', source: '/import/afp', trigger: 'schedule', startedAt: at(1, 0) }),
      'done',
      at(1, 1),
      { batchId: 'afp-nightly-afp-0123456789ab', files: 2 },
    );
    const lines = formatRuns([row, done], at(3, 0).getTime()).split('\n');
    expect(lines[0]).toMatch(/\sstate\s+batch\s+source$/);
    expect(lines[1]).toMatch(/\sempty\s+-\s+\/import\/afp$/);
    expect(lines[2]).toBe('    no new files since 02:00, 57 checks (last 02:56)');
    expect(lines[4]).toMatch(/\sdone\s+afp-nightly-afp-0123456789ab\s+\/import\/afp$/);
    expect(stretchLabel({ startedAt: at(2, 0).toISOString(), checks: 1 }, () => '02:00')).toBe(
      'no new files since 02:00, 1 check',
    );
  });

  it('the desk sidebar says the same of a stretch, and a single empty run as before', () => {
    const row: RunRecord = { ...emptyRun('r1', at(2, 0)), checks: 57, lastAt: at(2, 56).toISOString() };
    expect(web.runText(row)).toBe('no new files since 02:00, 57 checks (last 02:56)');
    expect(web.runText(emptyRun('r2', at(4, 5)))).toBe('04:05 · Empty');
    expect(web.runText({ ...emptyRun('r3', at(4, 6)), state: 'waiting' })).toBe('04:06 · Waiting');
  });
});

describe('what an empty run says', () => {
  const now = at(2, 0).getTime();
  const next = at(2, 1).getTime();
  it('the first run of a new schedule does not speak of a last run', () => {
    expect(emptyRunNote({ lastRunAt: null, young: ['a.jpg', 'b.jpg'], sourceFiles: 2, next, now })).toBe(
      'first run: 2 files still being written (a.jpg, b.jpg); next check 02:01',
    );
    expect(emptyRunNote({ lastRunAt: null, young: [], sourceFiles: 0, next, now })).toBe(
      'first run: the source holds no files yet; next check 02:01',
    );
    expect(emptyRunNote({ lastRunAt: null, young: [], sourceFiles: 0, next: null, now })).toBe(
      'first run: the source holds no files yet',
    );
  });
  it('a later one names the last run and what is still arriving', () => {
    expect(emptyRunNote({ lastRunAt: at(1, 59).toISOString(), young: [], sourceFiles: 4, next, now })).toBe(
      'nothing new since the last run (01:59); next check 02:01',
    );
    const many = Array.from({ length: 7 }, (_, i) => `p${i}.jpg`);
    expect(emptyRunNote({ lastRunAt: at(1, 59).toISOString(), young: many, sourceFiles: 9, next: null, now })).toBe(
      'nothing new since the last run (01:59); 7 files still being written (p0.jpg, p1.jpg, p2.jpg, p3.jpg, p4.jpg, 2 more)',
    );
  });
});

describe('OVERDUE names its grace period', () => {
  it('says how late a run must be before it is reported', () => {
    expect(formatOverdue({ schedule: 'afp-nightly', next: at(2, 0).getTime() })).toMatch(
      /^OVERDUE schedule afp-nightly: due since \d{4}-\d\d-\d\d 02:00:00, more than 5 min ago; is photowire scheduler running\?$/,
    );
  });
});

describe('batches of scheduled runs are named by their schedule and source', () => {
  it('folder and URL sources; the id is content-derived', () => {
    expect(scheduledFeedName('afp-nightly', '/import/afp')).toBe('afp-nightly-afp');
    expect(scheduledFeedName('ap-web', 'https://feeds.example.com/ap/manifest.ndjson')).toBe('ap-web-manifest');
    expect(scheduledFeedName('ap-web', 'https://feeds.example.com/')).toBe('ap-web-feeds-example-com');
    const id = scheduledBatchId('afp-nightly', '/import/afp', 'digest-1');
    expect(id).toMatch(/^afp-nightly-afp-[0-9a-f]{12}$/);
    expect(scheduledBatchId('afp-nightly', '/import/afp', 'digest-1')).toBe(id);
    expect(scheduledBatchId('afp-nightly', '/import/afp', 'digest-2')).not.toBe(id);
    expect(scheduledBatchId('afp-morning', '/import/afp', 'digest-1')).not.toBe(id);
  });
});
