import { spawnSync } from 'node:child_process';
import { binArgv } from '../../../helpers/bin';
import { formatWiderScore, readWiderSet, scoreWiderSet } from '../../../../bench/credits/wider';
import { defaultCreditRules } from '../../../../src/core/credits/rules';
import shipped from '../../../../src/core/credits/default-rules.json';

/**
 * `photowire credits` over 175 real credits from 13 named sources outside the big five wires
 * (test/fixtures/credits-wider, ORIGIN.md). Reproduce with the misses listed:
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/credits/run.js
 */
describe('credits-wider.tsv', () => {
  const rows = readWiderSet();
  const score = scoreWiderSet(defaultCreditRules(), rows);

  it('is at least 150 real credits from at least 10 sources', () => {
    expect(rows.length).toBeGreaterThanOrEqual(150);
    expect(new Set(rows.map((r) => r.origin)).size).toBeGreaterThanOrEqual(10);
  });

  it('gets creators and agency both right on at least 98% (the misses are listed on failure)', () => {
    const report = formatWiderScore(score, 'credits-wider.tsv');
    expect({ rightShare: score.both / score.rows >= 0.98, report }).toEqual({ rightShare: true, report });
  });

  it('says low wherever the split it gives is wrong', () => {
    const confident = score.results.filter((r) => !(r.creatorsOk && r.agencyOk) && r.credit.confidence !== 'low');
    expect(confident.map((r) => r.row.credit)).toEqual([]);
  });
});

describe('photowire credits --json', () => {
  it('prints the bumped rules version in every record', () => {
    const [node, ...argv] = binArgv();
    const r = spawnSync(node, [...argv, 'credits', '--json'], {
      input: 'Markus Schreiber/AP/dpa\n',
      encoding: 'utf8',
      env: { ...process.env, PHOTOWIRE_CREDIT_RULES: '' },
    });
    expect(r.status).toBe(0);
    const record = JSON.parse(r.stdout.trim().split('\n')[0]) as {
      rulesVersion: string;
      agency: string;
      distributor: string;
    };
    expect(shipped.version).toBe('2026.12.3');
    expect(record).toMatchObject({ rulesVersion: '2026.12.3', agency: 'AP', distributor: 'dpa' });
  });
});
