/**
 * Credit rules against real credits from outside the big five wire agencies
 * (test/fixtures/credits-wider, origins in its ORIGIN.md), and against the team's held sets:
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/credits/run.js [--rules FILE]
 *
 * Prints creators / agency / distributor accuracy and every miss. Exits 1 when creators and
 * agency are not both right on at least 98% of the wider set.
 */
import { loadCreditRules } from '../../src/core/credits/rules';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedFixturesDir } from '../common/paths';
import { formatWiderScore, scoreWiderSet, type WiderRow } from './wider';

/** The team's held set (test/fixtures/shared/fixtures/credits-dev.tsv) in the same shape: agencies there are rules ids. */
function devRows(): WiderRow[] {
  const rows: WiderRow[] = [];
  fs.readFileSync(path.join(sharedFixturesDir(), 'fixtures', 'credits-dev.tsv'), 'utf8')
    .split('\n')
    .forEach((l, i) => {
      if (!l.trim() || l.startsWith('#')) return;
      const [credit, creators = '', agency = '', distributor = ''] = l.replace(/\r$/, '').split('\t');
      const list = (s: string) =>
        s
          .split(';')
          .map((x) => x.trim())
          .filter(Boolean);
      rows.push({
        line: i + 1,
        credit,
        byline: [],
        source: null,
        creators: list(creators),
        agency: agency.trim() || null,
        distributor: distributor.trim() || null,
        origin: 'DEV',
      });
    });
  return rows;
}

const MIN_BOTH = 0.98;

function main(): number {
  const argv = process.argv.slice(2);
  const at = argv.indexOf('--rules');
  const rules = loadCreditRules(at >= 0 ? argv[at + 1] : undefined);
  const score = scoreWiderSet(rules);
  process.stdout.write(`rules ${rules.version}\n${formatWiderScore(score, 'credits-wider.tsv')}\n`);
  process.stdout.write(`${formatWiderScore(scoreWiderSet(rules, devRows()), 'held set credits-dev.tsv')}\n`);
  const ok = score.both / score.rows >= MIN_BOTH;
  process.stdout.write(ok ? `OK: >= ${MIN_BOTH * 100}% right\n` : `BELOW ${MIN_BOTH * 100}%\n`);
  return ok ? 0 : 1;
}

process.exitCode = main();
