import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Every relative link in the README and the docs reaches a file, and every `#anchor` a heading of
 * it (GitHub's slugs): the reference moved from the README to docs/, and a link left pointing at a
 * section that moved would send a newcomer nowhere.
 */
const ROOT = path.resolve(__dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : markdownFiles(p);
    return e.name.endsWith('.md') ? [p] : [];
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (m && !fenced) out.add(slug(m[1]));
  }
  return out;
}

describe('documentation links', () => {
  const files = [
    path.join(ROOT, 'README.md'),
    ...['docs', 'src', 'bench', 'test/fixtures'].flatMap((d) => markdownFiles(path.join(ROOT, d))),
  ];

  it('reach a file, and a heading of it', () => {
    expect(files.length).toBeGreaterThan(20);
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/.test(target)) continue; // http:, mailto:
        const [rel, anchor] = target.split('#');
        const to = rel ? path.resolve(path.dirname(file), rel) : file;
        checked++;
        if (!existsSync(to)) broken.push(`${path.relative(ROOT, file)}: ${target} (no such file)`);
        else if (anchor && to.endsWith('.md') && !anchorsOf(to).has(anchor))
          broken.push(`${path.relative(ROOT, file)}: ${target} (no such heading)`);
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  });

  it('the README stays a front door: at most 200 lines', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(200);
  });
});
