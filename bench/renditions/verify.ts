import * as fs from 'node:fs';
import * as path from 'node:path';
import sharp from 'sharp';

/** The size of a w x h image fit inside box x box, never enlarged (tools round the short side differently: +-1 px). */
export function fitInside(width: number, height: number, box: number): { width: number; height: number } {
  const scale = Math.min(1, box / width, box / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export interface OutputCheck {
  ok: boolean;
  problems: string[];
  thumbs: number;
  previews: number;
  meanThumbBytes: number;
  meanPreviewBytes: number;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/**
 * What a tool wrote must be what photowire writes: one WebP thumb and one JPEG preview per photo at
 * the fitted sizes. A tool whose output is wrong gets no speed figure.
 */
export async function checkOutputs(
  outDir: string,
  photos: number,
  input: { width: number; height: number },
  boxes: { thumb: number; preview: number },
): Promise<OutputCheck> {
  const files = walk(outDir).filter((f) => /\.(webp|jpe?g)$/i.test(f));
  const preview = fitInside(input.width, input.height, boxes.preview);
  const thumb = fitInside(preview.width, preview.height, boxes.thumb);
  const problems: string[] = [];
  const bytes = { thumb: 0, preview: 0 };
  let thumbs = 0;
  let previews = 0;
  for (const f of files) {
    const m = await sharp(f).metadata();
    const want = m.format === 'webp' ? thumb : m.format === 'jpeg' ? preview : null;
    if (!want) {
      problems.push(`${path.basename(f)}: unexpected format ${m.format}`);
      continue;
    }
    if (Math.abs((m.width ?? 0) - want.width) > 1 || Math.abs((m.height ?? 0) - want.height) > 1) {
      problems.push(`${path.basename(f)}: ${m.width}x${m.height}, expected ${want.width}x${want.height}`);
    }
    const size = fs.statSync(f).size;
    if (m.format === 'webp') {
      thumbs++;
      bytes.thumb += size;
    } else {
      previews++;
      bytes.preview += size;
    }
  }
  if (thumbs !== photos) problems.push(`${thumbs} WebP thumbs for ${photos} photos`);
  if (previews !== photos) problems.push(`${previews} JPEG previews for ${photos} photos`);
  return {
    ok: problems.length === 0,
    problems: problems.slice(0, 5),
    thumbs,
    previews,
    meanThumbBytes: thumbs ? Math.round(bytes.thumb / thumbs) : 0,
    meanPreviewBytes: previews ? Math.round(bytes.preview / previews) : 0,
  };
}
