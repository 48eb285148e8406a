import { Progress, progressStats } from '../../../src/cli/progress';

function fakeStream(): NodeJS.WriteStream & { text: string } {
  const s = {
    isTTY: false,
    text: '',
    write(chunk: string) {
      s.text += chunk;
      return true;
    },
  };
  return s as unknown as NodeJS.WriteStream & { text: string };
}

describe('progress of a wait', () => {
  it('shows no rate and no ETA on the first tick, however much was already done', () => {
    let t = 1_000_000;
    const out = fakeStream();
    const p = new Progress('batch', out, true, () => t);
    p.update(4000, 10000);
    expect(out.text).toBe('batch: 40% 4000/10000\n');
    expect(out.text).not.toMatch(/\/s|ETA/);
    t += 2000;
    p.update(5000, 10000);
    expect(out.text).toContain('5000/10000 500.0/s ETA 10s');
  });

  it('says ETA in minutes and hours when it is long', () => {
    expect(progressStats(10, 100_000, 0, 2)).toBe('10/100000 2.0/s ETA 13.9 h');
    expect(progressStats(10, 1000, 0, 2)).toBe('10/1000 2.0/s ETA 8 min');
    expect(progressStats(10, 10, 1, 5)).toBe('10/10 (1 failed) 5.0/s');
  });
});
