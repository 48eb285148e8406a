import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * One composition root: createPipelineContext (src/app/pipelineContext.ts) builds every service once
 * from one config read, and the Runtime owns it. A module of app/, adapters/ or queues/ that keeps a
 * service in module state (a WeakMap keyed by connection or context, a `let` filled on first use, an
 * empty Map filled later) is a second, hidden composition site: two runtimes in one process share
 * it, a test cannot replace it, and nothing closes it. Constant tables (`new Set([...])` of
 * literals) are not state. The pure core may memoize pure functions (compiled rules by identity).
 */

const ROOT = path.resolve(__dirname, '../..');
const LAYERS = ['src/app', 'src/adapters', 'src/queues'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return files(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

/** Module-level state of a file: `let` declarations and empty or keyed collections, with their line. */
export function moduleState(fileName: string, text: string): string[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const isLet = (st.declarationList.flags & ts.NodeFlags.Let) !== 0;
    for (const d of st.declarationList.declarations) {
      const init = d.initializer;
      const collection =
        init !== undefined &&
        ts.isNewExpression(init) &&
        ts.isIdentifier(init.expression) &&
        (init.expression.text === 'WeakMap' ||
          ((init.expression.text === 'Map' || init.expression.text === 'Set') && (init.arguments?.length ?? 0) === 0));
      if (isLet || collection) {
        const line = sf.getLineAndCharacterOfPosition(d.getStart()).line + 1;
        out.push(`${path.relative(ROOT, fileName)}:${line}: ${d.getText().split('\n')[0]}`);
      }
    }
  }
  return out;
}

describe('one composition root', () => {
  const sources = LAYERS.flatMap((d) => files(path.join(ROOT, d)));

  it('reads the app, adapter and queue layers', () => {
    expect(sources.length).toBeGreaterThan(100);
  });

  it('keeps no service in module state there', () => {
    expect(sources.flatMap((f) => moduleState(f, readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('would catch each kind (self-check)', () => {
    const text = [
      'const stores = new WeakMap<object, string>();',
      'let shipped: string | undefined;',
      'const byPath = new Map<string, number>();',
      "const TABLE = new Set(['a', 'b']);",
      'const N = 3;',
    ].join('\n');
    expect(moduleState(path.join(ROOT, 'src/app/probe.ts'), text).map((s) => s.replace(/^.*?: /, ''))).toEqual([
      'stores = new WeakMap<object, string>()',
      'shipped: string | undefined',
      'byPath = new Map<string, number>()',
    ]);
  });
});
