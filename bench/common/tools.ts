import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** A reference tool found on this machine, or why it is missing and which Debian package brings it. */
export interface Tool {
  name: string;
  found: boolean;
  path: string | null;
  version: string | null;
  debianPackage: string;
  note: string | null;
}

function run(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', timeout: 20_000, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const out = (err as { stdout?: string }).stdout;
    return typeof out === 'string' && out ? out : null;
  }
}

/** Every executable called `name` on PATH, in PATH order, without duplicates of the same file. */
function allOnPath(name: string, extra: string[] = []): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), ...extra]) {
    if (!dir) continue;
    const p = path.join(dir, name);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      const real = fs.realpathSync(p);
      if (seen.has(real)) continue;
      seen.add(real);
      out.push(p);
    } catch {
      /* not here */
    }
  }
  return out;
}

function isScript(p: string): boolean {
  try {
    const fd = fs.openSync(p, 'r');
    const head = Buffer.alloc(2);
    fs.readSync(fd, head, 0, 2, 0);
    fs.closeSync(fd);
    return head.toString('latin1') === '#!';
  } catch {
    return false;
  }
}

const missing = (name: string, debianPackage: string, note: string): Tool => ({
  name,
  found: false,
  path: null,
  version: null,
  debianPackage,
  note,
});

export function findVipsthumbnail(): Tool {
  const [p] = allOnPath('vipsthumbnail');
  if (!p) return missing('vipsthumbnail', 'libvips-tools', 'vipsthumbnail is not on PATH, its columns are skipped');
  const v = run(p, ['--vips-version'])?.trim() ?? null;
  return { name: 'vipsthumbnail', found: true, path: p, version: v, debianPackage: 'libvips-tools', note: null };
}

/**
 * The real ImageMagick: `magick` (7) or `convert` (6). A `convert` that is a shell script (some
 * machines put a wrapper first on PATH) is skipped when a real binary exists, so its start-up is
 * not billed to ImageMagick; a GraphicsMagick `convert` is not ImageMagick at all.
 */
export function findImageMagick(): Tool {
  const candidates = [
    ...allOnPath('magick'),
    ...allOnPath('convert', ['/usr/bin', '/bin']),
    ...allOnPath('convert-im6.q16', ['/usr/bin']),
  ];
  const real = candidates.filter((p) => !isScript(p));
  for (const p of [...real, ...candidates.filter((c) => !real.includes(c))]) {
    const out = run(p, ['-version']);
    if (!out || !/ImageMagick/.test(out)) continue;
    const version = out
      .split('\n')[0]
      .replace(/^Version:\s*/, '')
      .trim();
    return {
      name: 'imagemagick',
      found: true,
      path: p,
      version,
      debianPackage: 'imagemagick',
      note: isScript(p) ? 'only a wrapper script was found; its start-up is included' : null,
    };
  }
  return missing(
    'imagemagick',
    'imagemagick',
    `${candidates.length ? `no ImageMagick among ${candidates.join(', ')}` : 'neither magick nor convert is on PATH'}, its column is skipped`,
  );
}

/** A python3 that can import Pillow with WebP support (the Debian one if the PATH one has no Pillow). */
export function findPillow(): Tool {
  const probe =
    'import PIL, PIL.features as f; print(PIL.__version__, f.check("webp"), f.version("jpg") or "?", f.check_feature("libjpeg_turbo"))';
  for (const p of [...allOnPath('python3'), '/usr/bin/python3'].filter((v, i, a) => a.indexOf(v) === i)) {
    if (!fs.existsSync(p)) continue;
    const out = run(p, ['-c', probe])?.trim();
    if (!out) continue;
    const [ver, webp, jpg, turbo] = out.split(' ');
    if (webp !== 'True') continue;
    return {
      name: 'pillow',
      found: true,
      path: p,
      version: `Pillow ${ver}, libjpeg ${jpg}${turbo === 'True' ? ' (turbo)' : ''}`,
      debianPackage: 'python3-pil',
      note: null,
    };
  }
  return missing(
    'pillow',
    'python3-pil',
    'no python3 on this machine imports Pillow with WebP support, its column is skipped',
  );
}

export function findGnuTime(): Tool {
  const p = '/usr/bin/time';
  if (!fs.existsSync(p))
    return missing('time', 'time', '/usr/bin/time is missing: peak RSS is read by polling /proc instead');
  const v = run(p, ['--version'])?.trim().split('\n')[0] ?? null;
  if (!v || !/GNU/.test(v))
    return missing('time', 'time', `${p} is not GNU time: peak RSS is read by polling /proc instead`);
  return { name: 'time', found: true, path: p, version: v, debianPackage: 'time', note: null };
}

export function findTaskset(): Tool {
  const [p] = allOnPath('taskset');
  if (!p) return missing('taskset', 'util-linux', 'taskset is missing: one-core runs cannot be pinned');
  return { name: 'taskset', found: true, path: p, version: null, debianPackage: 'util-linux', note: null };
}

/** One line per missing tool, naming the package to add. */
export function missingToolLines(tools: Tool[]): string[] {
  return tools
    .filter((t) => !t.found)
    .map((t) => `  ${t.name}: ${t.note} (add the Debian package: sudo apt-get install ${t.debianPackage})`);
}
