import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export interface ReutersPhoto {
  story: string;
  caption: string;
}

/** The 46 real Reuters/AP captions of test/fixtures/stories/reuters-arc-photos.json (its ORIGIN.md), with the agency's story title. */
export function reutersPhotos(): ReutersPhoto[] {
  return (
    JSON.parse(readFileSync(path.join(__dirname, '../fixtures/stories/reuters-arc-photos.json'), 'utf8')) as {
      photos: ReutersPhoto[];
    }
  ).photos;
}

const csvCell = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/**
 * The captions as a caption-only CSV manifest (ID, Caption), in the fixture's order: item n of the
 * batch is photo n-1. Returns the path written.
 */
export function writeReutersCsv(dir: string, name = 'reuters.csv', photos: ReutersPhoto[] = reutersPhotos()): string {
  const file = path.join(dir, name);
  const rows = photos.map((p, i) => `${csvCell(`arc-${String(i + 1).padStart(2, '0')}`)},${csvCell(p.caption)}`);
  writeFileSync(file, ['ID,Caption', ...rows].join('\n') + '\n');
  return file;
}
