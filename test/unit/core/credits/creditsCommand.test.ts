import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCreditsCommand } from '../../../../src/cli/creditsCommand';
import { RulesFileError } from '../../../../src/core/rulesFile';

async function run(lines: string[], rulesPath?: string): Promise<{ low: number; out: Array<Record<string, unknown>> }> {
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const low = await runCreditsCommand(Readable.from([lines.join('\n')]), output, { rulesPath });
  return {
    low,
    out: text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'photowire-credits-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runCreditsCommand', () => {
  it('prints one JSON credit per raw credit line, without a caption', async () => {
    const { low, out } = await run([
      '# a comment line',
      'AFP PHOTO / LEON NEAL (Photo credit should read LEON NEAL/AFP/GettyImages) (credit:Getty)',
      '',
      'Tim Ireland/REX Shutterstock\r',
    ]);
    expect(low).toBe(0);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({
      creators: ['Leon Neal'],
      agency: 'AFP',
      distributor: 'Getty Images',
      line: 'Leon Neal/AFP via Getty Images',
      confidence: 'high',
    });
    expect(out[0]).not.toHaveProperty('caption');
    expect(out[1]).toMatchObject({ creators: ['Tim Ireland'], agency: 'Shutterstock', agencyId: 'SHUTTERSTOCK' });
    expect((out[1].raw as { captionTail: string }).captionTail).toBe('Tim Ireland/REX Shutterstock');
  });

  it('adds the cleaned caption when a whole caption was given', async () => {
    const { out } = await run([
      'Supporters of WikiLeaks founder Julian Assange sit outside the Ecuadorian Embassy, in London, Friday, June 22, 2012. (AP Photo/Lefteris Pitarakis) (credit:AP)',
    ]);
    expect(out[0]).toMatchObject({
      creators: ['Lefteris Pitarakis'],
      agency: 'AP',
      caption:
        'Supporters of WikiLeaks founder Julian Assange sit outside the Ecuadorian Embassy, in London, Friday, June 22, 2012.',
    });
  });

  it('counts low-confidence lines: unknown credits and captions without a credit', async () => {
    const { low, out } = await run([
      'Some Random Text',
      'A caption with no credit at all. It goes on for a while here.',
      'REUTERS/Mario Anzuoni',
    ]);
    expect(low).toBe(2);
    expect(out[0]).toMatchObject({ confidence: 'low', creators: [], agency: null });
    expect(out[0]).not.toHaveProperty('caption');
    expect(out[1]).toMatchObject({
      confidence: 'low',
      caption: 'A caption with no credit at all. It goes on for a while here.',
    });
    expect(out[2]).toMatchObject({ confidence: 'high' });
  });

  it('uses an operator rules file, so a new agency can be tried before deploying it', async () => {
    const file = path.join(dir, 'rules.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 'trial-1',
        agencies: { HARBOUR: { name: 'Harbour Photos', aliases: ['HBP'], line: '{creators}/HBP' } },
      }),
    );
    const before = await run(['Mara Lindqvist/HBP']);
    expect(before.out[0]).toMatchObject({ agency: 'HBP', line: 'Mara Lindqvist/HBP' });
    const after = await run(['Mara Lindqvist/HBP', 'Ships in the harbour, 3 Nov 2026. HBP PHOTO MARA LINDQVIST'], file);
    expect(after.out[0]).toMatchObject({
      agency: 'Harbour Photos',
      agencyId: 'HARBOUR',
      rulesVersion: expect.stringMatching(/\+trial-1$/),
    });
    expect(after.out[1]).toMatchObject({
      agency: 'Harbour Photos',
      agencyId: 'HARBOUR',
      creators: ['Mara Lindqvist'],
      caption: 'Ships in the harbour, 3 Nov 2026.',
    });
  });

  it('refuses an invalid rules file before printing anything', async () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, '{\n  "version": "x",\n  "agencies": [1, 2]\n}\n');
    const output = new PassThrough();
    let printed = '';
    output.on('data', (c: Buffer) => (printed += c.toString()));
    await expect(
      runCreditsCommand(Readable.from(['REUTERS/Mario Anzuoni']), output, { rulesPath: file }),
    ).rejects.toThrow(RulesFileError);
    await expect(
      runCreditsCommand(Readable.from(['REUTERS/Mario Anzuoni']), output, { rulesPath: file }),
    ).rejects.toThrow(/bad\.json, line 3: agencies/);
    expect(printed).toBe('');
  });
});
