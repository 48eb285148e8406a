import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

/**
 * Layers import downwards only (docs/ARCHITECTURE.md):
 *
 *   entry points  workers/, cli/, server/, sources/           (never import each other; workers/ is the
 *                                                               worker process; the job handlers it runs
 *                                                               are app/jobs/, which the runtime starts)
 *   app           app/
 *   adapters      adapters/, queues/, sample/, logger.ts       (never import an entry point)
 *   base          core/, schemas/, config.ts                   (import nothing above them, and
 *                                                               no bullmq, ioredis, sharp, fastify, pino)
 *
 * The import graph is read with the TypeScript compiler (ts.preProcessFile: static imports,
 * `export ... from`, `import type`, `import()` and `require()`), one edge per importing file and
 * imported file or package. There are no exceptions: any upward or sideways edge fails.
 */

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

type Layer = 'base' | 'adapters' | 'app' | 'entry';
const RANK: Record<Layer, number> = { base: 0, adapters: 1, app: 2, entry: 3 };

/** Top-level part of src/ (folder, or file without .ts) -> layer. */
const LAYERS: Record<string, Layer> = {
  core: 'base',
  schemas: 'base',
  config: 'base',
  adapters: 'adapters',
  queues: 'adapters',
  logger: 'adapters',
  app: 'app',
  workers: 'entry',
  cli: 'entry',
  server: 'entry',
  sources: 'entry',
  sample: 'adapters',
};

/**
 * The one exception to "entry points never import each other": the CLI is the process main (every
 * photowire process is a command), so a command may start another entry point through that entry
 * point's start module, and nothing else of it. The desk cannot be started from app/: building it
 * needs its routes, which are the server entry point itself. `photowire serve` is such a command.
 */
const STARTS: Record<string, string> = {
  'src/server/startServer.ts': 'the desk (HTTP API, page, queue board), started by `photowire serve`',
  'src/workers/workerProcess.ts':
    'the worker process (the BullMQ workers of app/jobs under one runtime, signals), started by `photowire worker`',
};

/** Packages with outside effects (Redis, images, HTTP, logging) that the pure base never imports. */
const NOT_IN_BASE = ['bullmq', 'ioredis', 'sharp', 'fastify', 'pino'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveRelative(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // try the next candidate
    }
  }
  return base;
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** One string per edge: `src/a/b.ts -> src/c/d.ts` or `src/a/b.ts -> pino`. */
function importEdges(files: string[]): Array<{ from: string; to: string; toFile?: string }> {
  return files.flatMap((file) => {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const specs = new Set(info.importedFiles.map((f) => f.fileName));
    return [...specs].map((spec) => {
      const from = path.relative(ROOT, file);
      if (spec.startsWith('.')) {
        const toFile = resolveRelative(file, spec);
        return { from, to: path.relative(ROOT, toFile), toFile };
      }
      return { from, to: packageName(spec) };
    });
  });
}

function layerPart(file: string): string | undefined {
  const rel = path.relative(SRC, file);
  if (rel.startsWith('..')) return undefined;
  return rel.split(path.sep)[0].replace(/\.ts$/, '');
}

function layerOf(file: string): Layer {
  const part = layerPart(file);
  const layer = part === undefined ? undefined : LAYERS[part];
  if (layer === undefined)
    throw new Error(
      `${path.relative(ROOT, file)}: src/${part} has no layer; add it to LAYERS in ${path.relative(ROOT, __filename)}`,
    );
  return layer;
}

/** Why an edge breaks the layering, or undefined when it is allowed. */
function breaks(edge: { from: string; to: string; toFile?: string }): string | undefined {
  const fromLayer = layerOf(path.join(ROOT, edge.from));
  if (edge.toFile === undefined) {
    return fromLayer === 'base' &&
      NOT_IN_BASE.some((p) => edge.to === p || edge.to.startsWith(`${p}/`) || edge.to.startsWith(`@${p}/`))
      ? `the pure base imports the package ${edge.to}`
      : undefined;
  }
  if (layerPart(edge.toFile) === undefined) return `imports ${edge.to}, outside src/`;
  const toLayer = layerOf(edge.toFile);
  if (RANK[toLayer] > RANK[fromLayer]) return `${fromLayer} imports upwards into ${toLayer}`;
  const fromPart = layerPart(path.join(ROOT, edge.from));
  const toPart = layerPart(edge.toFile);
  const started = fromPart === 'cli' && path.relative(ROOT, edge.toFile) in STARTS;
  if (fromLayer === 'entry' && toLayer === 'entry' && fromPart !== toPart && !started)
    return `entry point ${fromPart} imports entry point ${toPart}`;
  return undefined;
}

describe('imports go downwards only (core <- adapters <- app <- entry points)', () => {
  const files = sourceFiles(SRC);
  const edges = importEdges(files);
  const found = new Map<string, string>();
  for (const edge of edges) {
    const why = breaks(edge);
    if (why !== undefined) found.set(`${edge.from} -> ${edge.to}`, why);
  }

  it('reads the whole of src/', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.filter((e) => e.to === 'zod').length).toBeGreaterThan(10);
  });

  it('has no upward or sideways import, with no exceptions', () => {
    expect([...found].map(([edge, why]) => `${edge}   (${why})`)).toEqual([]);
  });
});
