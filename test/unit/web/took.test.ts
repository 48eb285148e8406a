import { loadWebModule } from './loadWebModule';

const list = loadWebModule<{
  tookText(
    b: {
      state: string;
      createdAt: string;
      finishedAt: string | null;
      processingMs?: number | null;
      elapsedMs?: number | null;
    },
    long?: boolean,
  ): string | null;
}>('ui/batchList.js');

const at = (ms: number) => new Date(Date.parse('2026-12-01T20:00:00.000Z') + ms).toISOString();

describe('the desk\'s "took"', () => {
  it('is the processing time; the header adds the time since it arrived only when a late retry made it much longer', () => {
    // A 0.1 s batch retried 5 min 42 s later: before, the desk said "took 5 min 42 s".
    const retried = { state: 'done', createdAt: at(0), finishedAt: at(342_000), processingMs: 140, elapsedMs: 342_000 };
    expect(list.tookText(retried)).toBe('took 140 ms');
    expect(list.tookText(retried, true)).toBe('took 140 ms, finished 5 min 42 s after it arrived');
    const plain = { state: 'done', createdAt: at(0), finishedAt: at(1200), processingMs: 1200, elapsedMs: 1200 };
    expect(list.tookText(plain, true)).toBe('took 1.2 s');
  });

  it('reads a batch of a version before processingMs as finishedAt - createdAt, and says nothing while it runs', () => {
    expect(list.tookText({ state: 'done', createdAt: at(0), finishedAt: at(2500) }, true)).toBe('took 2.5 s');
    expect(
      list.tookText(
        { state: 'running', createdAt: at(0), finishedAt: null, processingMs: null, elapsedMs: null },
        true,
      ),
    ).toBeNull();
  });
});
