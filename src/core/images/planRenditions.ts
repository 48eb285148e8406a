/** What to render for one photo: pure, so sizes and formats are decided (and tested) in one place. */
export interface RenditionSpec {
  name: 'thumb' | 'preview';
  box: number; // fit inside box x box, never enlarged
  format: 'webp' | 'jpeg';
  quality: number;
  file: string;
}

export interface RenditionPlan {
  decodeBox: number; // the size to decode at: the largest rendition's box
  renditions: RenditionSpec[];
  /** EXIF IFD0 tags written into every rendition so the credit travels with the pixels. */
  exif: Record<string, string> | null;
}

export const RENDITIONS: readonly RenditionSpec[] = [
  { name: 'thumb', box: 400, format: 'webp', quality: 75, file: 'thumb.webp' },
  { name: 'preview', box: 1600, format: 'jpeg', quality: 82, file: 'preview.jpg' },
];

/** EXIF ASCII tags must be 7-bit safe for most readers; keep what fits, never fail a photo for it. */
function exifText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .trim();
}

export function planRenditions(opts: { creditLine: string | null; copyright: string | null }): RenditionPlan {
  const exif: Record<string, string> = {};
  if (opts.creditLine) exif.Artist = exifText(opts.creditLine);
  if (opts.copyright) exif.Copyright = exifText(opts.copyright);
  for (const k of Object.keys(exif)) if (!exif[k]) delete exif[k];
  return {
    decodeBox: Math.max(...RENDITIONS.map((r) => r.box)),
    renditions: [...RENDITIONS],
    exif: Object.keys(exif).length ? exif : null,
  };
}
