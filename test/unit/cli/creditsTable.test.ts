import { Readable, Writable } from 'node:stream';
import { runCreditsCommand } from '../../../src/cli/creditsCommand';

async function dryRun(lines: string[], table: boolean): Promise<string> {
  let out = '';
  const sink = new Writable({
    write(c, _e, done) {
      out += String(c);
      done();
    },
  });
  await runCreditsCommand(Readable.from([lines.join('\n')]), sink, { table });
  return out;
}

describe('photowire credits on a terminal', () => {
  it('prints a readable table: one row per input, aligned columns, flags below', async () => {
    const out = await dryRun(['LEON NEAL/AFP/Getty Images', 'POOL/AFP', 'Handout photo by Jane Roe / U.S. Navy'], true);
    const rows = out.trimEnd().split('\n');
    expect(rows[0]).toMatch(/^input\s+creator\s+agency\s+distributor\s+house line\s+conf\./);
    expect(rows[1]).toMatch(/^-+  -+/);
    const leon = rows.find((r) => r.startsWith('LEON NEAL/AFP/Getty Images'))!;
    expect(leon).toMatch(/Leon Neal\s+AFP\s+Getty Images/);
    expect(rows.some((r) => /flags: .*pool/.test(r))).toBe(true);
    // Columns line up: "creator" starts at the same offset in the header and in each row.
    const col = rows[0].indexOf('creator');
    expect(leon.slice(col, col + 'Leon Neal'.length)).toBe('Leon Neal');
    expect(() => JSON.parse(rows[2])).toThrow();
    // An organisation the rules do not list is "medium", printed whole in the confidence column.
    expect(rows.find((r) => r.startsWith('Handout photo by Jane Roe'))).toMatch(/\smedium$/);
  });

  it('prints one JSON object per line when piped (or with --json)', async () => {
    const out = await dryRun(['LEON NEAL/AFP/Getty Images'], false);
    expect(JSON.parse(out.trim())).toMatchObject({ creators: ['Leon Neal'], agency: 'AFP' });
  });
});
