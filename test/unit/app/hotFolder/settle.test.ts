import {
  emptySettleState,
  heldMessage,
  holdWarnMs,
  renamedFrom,
  settleStep,
  type EntryObservation,
  type HeldEntry,
  type ScanListing,
  type SettleState,
} from '../../../../src/app/hotFolder/settle';

const file = (name: string, signature: string, ino = 0): EntryObservation => ({
  name,
  kind: 'file',
  signature,
  ino,
  incomplete: false,
});
const listing = (
  candidates: EntryObservation[],
  temps: EntryObservation[] = [],
  marked: string[] = [],
): ScanListing => ({ candidates, temps, marked: new Set(marked) });

/** Run scans at the given times; return which names were ready at each. */
function scans(steps: Array<{ at: number; l: ScanListing }>, settleMs: number): string[][] {
  let state: SettleState = emptySettleState();
  return steps.map(({ at, l }) => {
    const r = settleStep(state, l, at, settleMs);
    state = r.state;
    return r.ready.map((x) => `${x.entry.name}:${x.reason}`);
  });
}

describe('settle: is a dropped file complete?', () => {
  it('a file that keeps growing is not ready; once unchanged for the settle time it is', () => {
    const ready = scans(
      [
        { at: 0, l: listing([file('a.jpg', '100:1')]) },
        { at: 1000, l: listing([file('a.jpg', '200:2')]) },
        { at: 2000, l: listing([file('a.jpg', '300:3')]) },
        { at: 4000, l: listing([file('a.jpg', '300:3')]) },
        { at: 5000, l: listing([file('a.jpg', '300:3')]) },
      ],
      3000,
    );
    expect(ready).toEqual([[], [], [], [], ['a.jpg:settled']]);
  });

  it('measures the settle time on its own clock, from the first scan that saw the final state', () => {
    // mtime far in the past (a skewed network mount) does not make a new file ready at once.
    const ready = scans(
      [
        { at: 10_000, l: listing([file('a.jpg', '300:1')]) },
        { at: 11_000, l: listing([file('a.jpg', '300:1')]) },
        { at: 13_000, l: listing([file('a.jpg', '300:1')]) },
      ],
      3000,
    );
    expect(ready).toEqual([[], [], ['a.jpg:settled']]);
  });

  it('a marker makes an entry ready at once, even while it still changes', () => {
    const ready = scans([{ at: 0, l: listing([file('a.jpg', '100:1'), file('b.jpg', '5:1')], [], ['a.jpg']) }], 60_000);
    expect(ready).toEqual([['a.jpg:marker']]);
  });

  it('a rename from a temp name seen in the previous scan is ready at once', () => {
    const ready = scans(
      [
        { at: 0, l: listing([], [file('a.jpg.part', '100:1', 42)]) },
        { at: 500, l: listing([], [file('a.jpg.part', '900:2', 42)]) },
        { at: 1000, l: listing([file('a.jpg', '900:2', 42)]) },
      ],
      60_000,
    );
    expect(ready).toEqual([[], [], ['a.jpg:renamed']]);
  });

  it('a rename that hid the file from one scan (it happened mid-listing) is still recognised', () => {
    const ready = scans(
      [
        { at: 0, l: listing([], [file('a.jpg.part', '900:2', 42)]) },
        { at: 1000, l: listing([]) },
        { at: 2000, l: listing([file('a.jpg', '900:2', 42)]) },
      ],
      60_000,
    );
    expect(ready).toEqual([[], [], ['a.jpg:renamed']]);
  });

  it('a temp name is remembered for a minute only', () => {
    const ready = scans(
      [
        { at: 0, l: listing([], [file('a.jpg.part', '900:2', 42)]) },
        { at: 61_000, l: listing([]) },
        { at: 62_000, l: listing([file('a.jpg', '900:2', 42)]) },
      ],
      600_000,
    );
    expect(ready).toEqual([[], [], []]);
  });

  it('rsync-style dot temp names count as renames too', () => {
    const ready = scans(
      [
        { at: 0, l: listing([], [file('.a.jpg.Xa81Kq', '900:2', 7)]) },
        { at: 1000, l: listing([file('a.jpg', '900:2', 7)]) },
      ],
      60_000,
    );
    expect(ready).toEqual([[], ['a.jpg:renamed']]);
  });

  it('an unrelated file that reuses a vanished temp file inode is not taken for a rename', () => {
    const ready = scans(
      [
        { at: 0, l: listing([], [file('x.jpg.part', '100:1', 42)]) },
        { at: 1000, l: listing([file('other.jpg', '10:5', 42)]) },
      ],
      60_000,
    );
    expect(ready).toEqual([[], []]);
    expect(renamedFrom('x.jpg.part', 'x.jpg')).toBe(true);
    expect(renamedFrom('x.jpg.part', 'other.jpg')).toBe(false);
  });

  it('a folder still holding temp-named files waits, even when it looks settled, and even with its marker', () => {
    const dir = (incomplete: boolean): EntryObservation => ({
      name: 'gallery',
      kind: 'dir',
      signature: '3:900:5',
      ino: 9,
      incomplete,
      ...(incomplete ? { tempNames: ['cp.jpg.part'] } : {}),
    });
    expect(
      scans(
        [
          { at: 0, l: listing([dir(true)]) },
          { at: 10_000, l: listing([dir(true)]) },
        ],
        1000,
      ),
    ).toEqual([[], []]);
    expect(
      scans(
        [
          { at: 0, l: listing([dir(false)]) },
          { at: 10_000, l: listing([dir(false)]) },
        ],
        1000,
      ),
    ).toEqual([[], ['gallery:settled']]);
    // The marker does not override an unfinished upload: it waits; once the .part is renamed the marker takes it at once.
    expect(
      scans(
        [
          { at: 0, l: listing([dir(true)], [], ['gallery']) },
          { at: 500, l: listing([dir(false)], [], ['gallery']) },
        ],
        1000,
      ),
    ).toEqual([[], ['gallery:marker']]);
  });

  it('a held folder keeps the time it began waiting, and says what it waits for in the words of the log and runs', () => {
    let state = emptySettleState();
    const dir: EntryObservation = {
      name: 'gallery',
      kind: 'dir',
      signature: '3:900:5',
      ino: 9,
      incomplete: true,
      tempNames: ['cp.jpg.part'],
    };
    const held: HeldEntry[][] = [];
    for (const at of [1000, 60_000, 181_000]) {
      const r = settleStep(state, listing([dir], [], ['gallery']), at, 300);
      state = r.state;
      held.push(r.held);
    }
    expect(held.map((h) => h.map((x) => [x.entry.name, x.since, x.marked]))).toEqual([
      [['gallery', 1000, true]],
      [['gallery', 1000, true]],
      [['gallery', 1000, true]],
    ]);
    expect(heldMessage(held[2][0], 181_000)).toBe(
      'gallery/ still holds cp.jpg.part after 3 min (its .done marker is there); waiting for the sender',
    );
    expect(heldMessage(held[0][0], 31_000)).toBe(
      'gallery/ still holds cp.jpg.part after 30 s (its .done marker is there); waiting for the sender',
    );
    // Twenty settle times, never less than two minutes.
    expect(holdWarnMs(300)).toBe(120_000);
    expect(holdWarnMs(10_000)).toBe(200_000);
    // Gone from the folder: forgotten.
    expect(settleStep(state, listing([]), 200_000, 300).state.holding.size).toBe(0);
  });

  it('forgets entries that are gone, so a new file of the same name starts over', () => {
    const ready = scans(
      [
        { at: 0, l: listing([file('a.jpg', '1:1')]) },
        { at: 1000, l: listing([]) },
        { at: 2000, l: listing([file('a.jpg', '1:1')]) },
        { at: 2500, l: listing([file('a.jpg', '1:1')]) },
      ],
      1000,
    );
    expect(ready).toEqual([[], [], [], []]);
  });

  it('a settle time of 0 takes a file on first sight', () => {
    expect(scans([{ at: 0, l: listing([file('a.jpg', '1:1')]) }], 0)).toEqual([['a.jpg:settled']]);
  });
});
