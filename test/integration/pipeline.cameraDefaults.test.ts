import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REPO_ROOT } from '../helpers/testEnv';
import { TestPipeline } from '../helpers/pipeline';
import type { CatalogRecord } from '../../src/schemas/record';

// Real camera files from ExifTool's test images (test/fixtures/real-wire/ORIGIN-images.md): each
// says only "<MAKER> DIGITAL CAMERA" in EXIF ImageDescription. Before issue 28 that text became
// their caption, and the three photos of three cameras formed one caption cluster.
const REAL = path.join(REPO_ROOT, 'test/fixtures/real-wire/images');
const CAMERA_FILES = ['exiftool-GE.jpg', 'exiftool-Olympus.jpg', 'exiftool-Sanyo.jpg'];

describe('a batch of camera files whose only caption is the camera default', () => {
  let p: TestPipeline;
  let dir: string;
  let records: CatalogRecord[];
  let warnings: string[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'photowire-camera-defaults-'));
    for (const f of CAMERA_FILES) copyFileSync(path.join(REAL, f), path.join(dir, f));
    // the Sanyo file once more under another name: the same default twice in one batch
    copyFileSync(path.join(REAL, 'exiftool-Sanyo.jpg'), path.join(dir, 'exiftool-Sanyo-2.jpg'));
    p = await TestPipeline.start();
    const [o] = await p.ingest([dir]);
    expect(o.error).toBeNull();
    records = await p.rt.ctx.catalog.getRecords(o.batchId!);
    warnings = (await p.rt.ctx.catalog.getBatch(o.batchId!))!.warnings;
  });
  afterAll(async () => {
    await p.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every photo an empty caption, not the camera text, and says why in the batch warnings', () => {
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(r.error).toBeNull();
      expect(r.captionRaw).toBe('');
      expect(r.caption).toBe('');
    }
    expect(warnings.join('\n')).toMatch(
      /exiftool-Olympus\.jpg: EXIF caption "OLYMPUS DIGITAL CAMERA" is a camera or software default \(rule camera-model-caption\); dropped/,
    );
  });

  it('puts none of them in a caption cluster', () => {
    expect(records.map((r) => r.cluster)).toEqual([null, null, null, null]);
  });
});
