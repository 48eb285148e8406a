/**
 * A delivery folder read whole (docs/DELIVERIES.md): load time of a folder of N real dpa
 * item/picture pairs (the dpa NewsML-G2 item with its href renamed per pair, its JPEG beside it),
 * and what the second parse of each XML (wireXmlNames: every rendition it names) costs beside the
 * item parse.
 *
 *   node dist-bench/bench/run.js delivery [--pairs 500]
 */
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadFeed } from '../../src/adapters/feeds/loadFeed';
import { wireXmlNames } from '../../src/core/feeds/folderFeed';
import { parseWireXml } from '../../src/core/feeds/xml/parseWireXml';
import { removeDir, scratchDir, sharedFixturesDir } from '../common/paths';

const ROUNDS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--pairs');
  const pairs = at > 0 ? Number(process.argv[at + 1]) : process.argv.includes('--quick') ? 100 : 500;
  const dpa = path.join(sharedFixturesDir(), 'fixtures/real-wire/dpa');
  const xmlFile = path.join(dpa, 'urn_newsml_dpa.com_20090101_171117-90-000086.xml');
  const xml = readFileSync(xmlFile, 'utf8');
  const jpeg = readFileSync(path.join(dpa, 'urn_binary_dpa_com_20090101_171117-90-000086-FILED.jpeg'));
  const dir = scratchDir('delivery');
  try {
    for (let i = 0; i < pairs; i++) {
      await fs.writeFile(
        path.join(dir, `item-${i}.xml`),
        xml
          .replace('urn_binary_dpa_com_20090101_171117-90-000086-FILED.jpeg', `pic-${i}.jpeg`)
          .replace(/171117-90-000086</g, `171117-90-${i}<`),
      );
      await fs.writeFile(path.join(dir, `pic-${i}.jpeg`), jpeg);
    }
    const loads: number[] = [];
    let items = 0;
    let bare = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const t = process.hrtime.bigint();
      const feed = await loadFeed(dir, 64 << 20);
      loads.push(Number(process.hrtime.bigint() - t) / 1e6);
      items = feed.items.length;
      bare = feed.items.filter((i) => !i.agencyId).length;
    }
    const per = (fn: () => unknown): number => {
      const rounds: number[] = [];
      for (let r = 0; r < 7; r++) {
        const t = process.hrtime.bigint();
        for (let i = 0; i < 200; i++) fn();
        rounds.push(Number(process.hrtime.bigint() - t) / 1e6 / 200);
      }
      return median(rounds);
    };
    const result = {
      pairs,
      items,
      bareRecords: bare,
      loadMedianMs: Math.round(median(loads)),
      loadPerPairMs: +(median(loads) / pairs).toFixed(2),
      itemParseMs: +per(() => parseWireXml(xml, xmlFile, {})).toFixed(3),
      namesParseMs: +per(() => wireXmlNames(xml, xmlFile)).toFixed(3),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    removeDir(dir);
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
