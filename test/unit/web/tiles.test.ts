import { loadWebModule } from './loadWebModule';

const view = loadWebModule<{ tileColumns(n: number, width: number): number }>('ui/batchView.js');

describe("the batch head's count tiles", () => {
  it('sit in one row when they fit, else in even rows: never one tile alone on a row', () => {
    // 130 px tiles with 10 px gaps: 1012 px (the head at 1400 px) holds 7.
    expect(view.tileColumns(8, 1012)).toBe(4);
    expect(view.tileColumns(7, 1012)).toBe(7);
    expect(view.tileColumns(8, 1532)).toBe(8);
    expect(view.tileColumns(8, 852)).toBe(4);
    expect(view.tileColumns(7, 852)).toBe(4);
    expect(view.tileColumns(8, 120)).toBe(1);
    for (let n = 1; n <= 12; n++) {
      for (let width = 100; width <= 2000; width += 37) {
        const cols = view.tileColumns(n, width);
        const rows = Math.ceil(n / cols);
        const last = n - (rows - 1) * cols;
        expect({
          n,
          width,
          fits: cols === 1 || cols * 130 + (cols - 1) * 10 <= width,
          even: rows === 1 || cols - last <= rows - 1,
        }).toEqual({ n, width, fits: true, even: true });
      }
    }
  });
});
