import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const WEB_ROOT = path.resolve(__dirname, '../../../web');
const cache = new Map<string, unknown>();

/**
 * The page's modules are plain browser ES modules, served as they are. Jest here runs CommonJS
 * and transforms only .ts, so a test loads them through the TypeScript compiler's transpiler
 * (module syntax only: the code under test is the shipped code), resolving their relative imports
 * the same way the browser does.
 */
export function loadWebModule<T>(rel: string): T {
  return load(path.resolve(WEB_ROOT, rel)) as T;
}

function load(file: string): unknown {
  if (cache.has(file)) return cache.get(file);
  const out = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, allowJs: true },
    fileName: file,
  });
  const mod = { exports: {} as Record<string, unknown> };
  cache.set(file, mod.exports);
  const localRequire = (spec: string) => {
    if (!spec.startsWith('.')) throw new Error(`${file}: the page imports only its own modules, not ${spec}`);
    return load(path.resolve(path.dirname(file), spec));
  };
  new Function('exports', 'require', 'module', out.outputText)(mod.exports, localRequire, mod);
  return mod.exports;
}
