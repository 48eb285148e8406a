import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * The registries have no holes: `src/adapters/redis/keys.ts` is the only file that builds a Redis
 * key name, and `src/queues/queues.ts` the only one that opens a BullMQ Queue or FlowProducer.
 * Read with the TypeScript compiler's parser, so comments and strings about keys do not count.
 */
const ROOT = path.resolve(__dirname, '../..');
const KEYS_FILE = 'src/adapters/redis/keys.ts';
const QUEUES_FILE = 'src/queues/queues.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** An expression that names a key or a key prefix (what a key template starts from). */
const KEYISH = /redisKeys\(|\bkeys?\b|[pP]refix\b|\btag\b|\bbase\b|[kK]ey\b/;

interface Finding {
  file: string;
  line: number;
  text: string;
  kind: 'key template' | 'queue opened';
}

/** Key templates and Queue/FlowProducer constructions in one file's text. */
export function scan(file: string, text: string): Finding[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Finding[] = [];
  const add = (node: ts.Node, kind: Finding['kind']) =>
    out.push({
      file,
      line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
      text: node.getText(sf).slice(0, 120),
      kind,
    });
  const visit = (node: ts.Node): void => {
    if (ts.isTemplateExpression(node)) {
      // `${keys.x}:suffix`, `${prefix}:name`, `${tag}*` (a SCAN pattern), `{${p}:...}` (a hash tag)
      const built =
        (node.head.text.endsWith('{') && /^:[a-z]/.test(node.templateSpans[0].literal.text)) ||
        node.templateSpans.some(
          (s) => KEYISH.test(s.expression.getText(sf)) && (/^:[^\s]/.test(s.literal.text) || s.literal.text === '*'),
        );
      if (built) add(node, 'key template');
    }
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
      KEYISH.test(node.left.getText(sf)) &&
      ts.isStringLiteral(node.right) &&
      /^:[^\s]|^\*$/.test(node.right.text)
    ) {
      add(node, 'key template');
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'hashTag')
      add(node, 'key template');
    if (
      ts.isNewExpression(node) &&
      ts.isIdentifier(node.expression) &&
      ['Queue', 'FlowProducer'].includes(node.expression.text)
    )
      add(node, 'queue opened');
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('the registries', () => {
  const files = sourceFiles(path.join(ROOT, 'src')).map((f) => path.relative(ROOT, f));
  const findings = files.flatMap((f) => scan(f, readFileSync(path.join(ROOT, f), 'utf8')));

  it('the scan finds what it looks for (keys.ts builds keys, queues.ts opens queues)', () => {
    expect(findings.filter((f) => f.file === KEYS_FILE && f.kind === 'key template').length).toBeGreaterThan(20);
    expect(findings.filter((f) => f.file === QUEUES_FILE && f.kind === 'queue opened').length).toBe(2);
    const planted = [
      'const a = `${redisKeys(prefix).retentionCursor}:lock`;',
      'const b = `{${p}:batch:${id}}:items`;',
      'const c = `${this.keys.base}*`;',
      "const d = keyPrefix + ':runs';",
      'const e = hashTag(`${p}:kill`);',
      "const q = new Queue('photowire-item', { connection });",
      'const f = new FlowProducer({ connection });',
    ];
    expect(planted.map((line) => scan('planted.ts', line).length)).toEqual(planted.map(() => 1));
    // Text that only looks like it: a log line, a time, a URL.
    expect(
      scan(
        'plain.ts',
        'const t = `${h}:${m}`; const u = `http://${host}:${port}`; const m = `kept ${key}: its export is missing`;',
      ),
    ).toEqual([]);
  });

  it('builds no Redis key name outside keys.ts', () => {
    expect(findings.filter((f) => f.kind === 'key template' && f.file !== KEYS_FILE)).toEqual([]);
  });

  it('opens no BullMQ Queue or FlowProducer outside src/queues/queues.ts', () => {
    expect(findings.filter((f) => f.kind === 'queue opened' && f.file !== QUEUES_FILE)).toEqual([]);
  });
});
