import { ItemPipeline } from '../../../../src/app/items/itemPipeline';
import type { ItemJob } from '../../../../src/schemas/jobs';
import { Fakes, job } from './fakes';

/** A chunk of caption-only items through the item pipeline, over in-memory fakes of its ports. */

const CAPTIONS = [
  'Fans cheer in Madrid on Sunday. REUTERS/Susana Vera',
  'Rescue workers search the rubble in Izmir. AFP PHOTO / OZAN KOSE',
  'The northern lights glow over Lofoten. (AP Photo/Jan Berg)',
];

const chunkJobs = (over: Array<Partial<ItemJob['item']>> = []): ItemJob[] =>
  CAPTIONS.map((captionRaw, i) =>
    job(
      {
        captionRaw,
        source: { file: '/feeds/drop/feed.ndjson', position: i, format: 'ndjson', line: i + 1 },
        ...over[i],
      },
      { itemId: `b1-000${i + 1}`, index: i },
    ),
  );

describe('ItemPipeline.handleChunk', () => {
  it('stores the chunk in one markItems step, settled together, each record as one item job would store it', async () => {
    const f = new Fakes();
    const out = await new ItemPipeline(f.ports()).handleChunk('b1', chunkJobs(), { number: 1, max: 3 });
    expect(out).toMatchObject({ stored: 3, skipped: 0, failed: [] });
    expect(f.called('catalog.markItems').map((c) => c.args)).toEqual([['b1', ['b1-0001', 'b1-0002', 'b1-0003']]]);
    expect(f.called('catalog.markItem')).toEqual([]);
    expect(f.called('kills.settleMany')).toHaveLength(1);
    expect(f.called('kills.settle')).toEqual([]);
    expect(f.logs.filter((l) => l.msg === 'item done').map((l) => (l.obj as { itemId: string }).itemId)).toEqual([
      'b1-0001',
      'b1-0002',
      'b1-0003',
    ]);

    const one = new Fakes();
    const p = new ItemPipeline(one.ports());
    for (const j of chunkJobs()) await p.handle(j, { number: 1, max: 3 });
    expect(f.marked).toEqual(one.marked);
  });

  it('a bad item fails alone with its code; the rest of the chunk is stored', async () => {
    const f = new Fakes();
    const jobs = chunkJobs([{}, { error: { code: 'FEED_MALFORMED', message: 'line 2: not JSON' } }, {}]);
    const out = await new ItemPipeline(f.ports()).handleChunk('b1', jobs, { number: 1, max: 3 });
    expect(out).toMatchObject({ stored: 3, failed: ['b1-0002'] });
    const byId = new Map(f.marked.map((m) => [m.record.id, m]));
    expect(byId.get('b1-0001')!.failure).toBeNull();
    expect(byId.get('b1-0003')!.failure).toBeNull();
    expect(byId.get('b1-0002')!.failure).toEqual({
      error: { code: 'FEED_MALFORMED', message: 'line 2: not JSON' },
      attempts: 1,
    });
    expect(byId.get('b1-0002')!.record.error).toEqual({ code: 'FEED_MALFORMED', message: 'line 2: not JSON' });
  });

  it('a transient fault stores the others and throws; the next attempt runs only the item not yet stored', async () => {
    const f = new Fakes();
    const ports = f.ports();
    let faults = 1;
    ports.pause = async (_point, itemId) => {
      if (itemId === 'b1-0002' && faults-- > 0) throw new Error('connection reset');
    };
    const p = new ItemPipeline(ports);
    await expect(p.handleChunk('b1', chunkJobs(), { number: 1, max: 3 })).rejects.toThrow('connection reset');
    expect(f.marked.map((m) => m.record.id)).toEqual(['b1-0001', 'b1-0003']);
    const again = await p.handleChunk('b1', chunkJobs(), { number: 2, max: 3 });
    expect(again).toMatchObject({ stored: 1, skipped: 2, failed: [] });
    expect(f.marked.map((m) => m.record.id)).toEqual(['b1-0001', 'b1-0003', 'b1-0002']);
    expect(f.marked.every((m) => m.failure === null)).toBe(true);
  });

  it('on the last attempt a transient fault is stored failed and the chunk ends', async () => {
    const f = new Fakes();
    const ports = f.ports();
    ports.pause = async (_point, itemId) => {
      if (itemId === 'b1-0003') throw new Error('connection reset');
    };
    const out = await new ItemPipeline(ports).handleChunk('b1', chunkJobs(), { number: 3, max: 3 });
    expect(out).toMatchObject({ stored: 3, failed: ['b1-0003'] });
    expect(f.marked.find((m) => m.record.id === 'b1-0003')!.failure).toEqual({
      error: { code: 'INTERNAL', message: 'connection reset' },
      attempts: 3,
    });
  });

  it('nothing is stored when the chunk step fails: the job runs again whole', async () => {
    const f = new Fakes();
    f.markFault = new Error('READONLY');
    const p = new ItemPipeline(f.ports());
    await expect(p.handleChunk('b1', chunkJobs(), { number: 1, max: 3 })).rejects.toThrow('READONLY');
    expect(f.marked).toEqual([]);
    f.markFault = null;
    expect(await p.handleChunk('b1', chunkJobs(), { number: 2, max: 3 })).toMatchObject({ stored: 3, skipped: 0 });
  });
});
