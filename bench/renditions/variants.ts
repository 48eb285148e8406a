import sharp, { type Sharp } from 'sharp';
import type { RenditionPlan } from '../../src/core/images/planRenditions';
import type { RenderResult, RenderedImage } from '../../src/adapters/images/sharpImages';

/**
 * Other ways to make the same two renditions, for the tuning table: each differs from the shipped
 * `renderRenditions` in one choice, so the table shows what that choice is worth.
 */
export interface VariantOptions {
  /** Make each rendition from its own decode of the original, not thumb from preview pixels. */
  separate: boolean;
  progressive: boolean;
  /** Reduce the 1600 px pixels to 9x8 for the hash, instead of the 400 px ones. */
  hashFromPreview: boolean;
  sequentialRead: boolean;
  /** false: libvips keeps a 2x margin after shrink-on-load, which for 24 MP to 1600 px means a full-size decode. */
  fastShrinkOnLoad: boolean;
  /** Decode to the preview size and stop: the floor no way of making the renditions can go under. */
  decodeOnly?: boolean;
}

export const VARIANTS: Record<string, { about: string; opts: VariantOptions }> = {
  'decode-only': {
    about: 'decode at the preview size only, nothing made or written (the floor)',
    opts: {
      separate: false,
      progressive: false,
      hashFromPreview: false,
      sequentialRead: true,
      fastShrinkOnLoad: true,
      decodeOnly: true,
    },
  },
  'separate-decodes': {
    about: 'each rendition decoded from the original on its own (two decodes)',
    opts: { separate: true, progressive: false, hashFromPreview: false, sequentialRead: true, fastShrinkOnLoad: true },
  },
  'progressive-preview': {
    about: 'preview as progressive JPEG',
    opts: { separate: false, progressive: true, hashFromPreview: false, sequentialRead: true, fastShrinkOnLoad: true },
  },
  'hash-from-preview': {
    about: '9x8 hash reduced from the 1600 px pixels',
    opts: { separate: false, progressive: false, hashFromPreview: true, sequentialRead: true, fastShrinkOnLoad: true },
  },
  'random-access': {
    about: 'decode without sequentialRead',
    opts: {
      separate: false,
      progressive: false,
      hashFromPreview: false,
      sequentialRead: false,
      fastShrinkOnLoad: true,
    },
  },
  'no-fast-shrink-on-load': {
    about: 'shrink-on-load keeps a 2x margin (fastShrinkOnLoad: false)',
    opts: {
      separate: false,
      progressive: false,
      hashFromPreview: false,
      sequentialRead: true,
      fastShrinkOnLoad: false,
    },
  },
  'before-tuning': {
    about: 'the code before this issue: progressive preview and hash from 1600 px',
    opts: { separate: false, progressive: true, hashFromPreview: true, sequentialRead: true, fastShrinkOnLoad: true },
  },
};

type Spec = RenditionPlan['renditions'][number];
type Raw = { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };

function fit(img: Sharp, box: number, fastShrinkOnLoad: boolean): Sharp {
  return img.resize({ width: box, height: box, fit: 'inside', withoutEnlargement: true, fastShrinkOnLoad });
}

function encoder(img: Sharp, spec: Spec, plan: RenditionPlan, progressive: boolean): Sharp {
  if (plan.exif) img = img.withExif({ IFD0: plan.exif });
  return spec.format === 'webp'
    ? img.webp({ quality: spec.quality, effort: 2 })
    : img.jpeg({ quality: spec.quality, progressive, optimiseCoding: true });
}

async function gray9x8(raw: Raw): Promise<Uint8Array> {
  const g = await sharp(raw.data, { raw: raw.info }).resize(9, 8, { fit: 'fill' }).grayscale().raw().toBuffer();
  return new Uint8Array(g.buffer, g.byteOffset, 72);
}

async function decodeTo(bytes: Buffer, box: number, o: VariantOptions, maxPixels: number): Promise<Raw> {
  const out = await fit(
    sharp(bytes, { limitInputPixels: maxPixels, sequentialRead: o.sequentialRead, failOn: 'error' }).autoOrient(),
    box,
    o.fastShrinkOnLoad,
  )
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: out.data, info: { width: out.info.width, height: out.info.height, channels: out.info.channels } };
}

async function fromRaw(
  raw: Raw,
  spec: Spec,
  plan: RenditionPlan,
  o: VariantOptions,
): Promise<{ img: RenderedImage; raw: Raw }> {
  const pixels = await fit(sharp(raw.data, { raw: raw.info }), spec.box, true)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const r: Raw = {
    data: pixels.data,
    info: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels },
  };
  const out = await encoder(sharp(r.data, { raw: r.info }), spec, plan, o.progressive).toBuffer({
    resolveWithObject: true,
  });
  return {
    img: { name: spec.name, data: out.data, width: out.info.width, height: out.info.height, format: spec.format },
    raw: r,
  };
}

export async function renderVariant(
  bytes: Buffer,
  plan: RenditionPlan,
  o: VariantOptions,
  maxPixels: number,
): Promise<RenderResult> {
  if (o.decodeOnly) {
    const raw = await decodeTo(bytes, plan.decodeBox, o, maxPixels);
    return { renditions: [], gray9x8: await gray9x8(raw) };
  }
  const largestFirst = [...plan.renditions].sort((a, b) => b.box - a.box);
  const made = new Map<string, { img: RenderedImage; raw: Raw }>();
  if (o.separate) {
    for (const spec of largestFirst)
      made.set(spec.name, await fromRaw(await decodeTo(bytes, spec.box, o, maxPixels), spec, plan, o));
  } else {
    let raw = await decodeTo(bytes, plan.decodeBox, o, maxPixels);
    for (const spec of largestFirst) {
      const m = await fromRaw(raw, spec, plan, o);
      made.set(spec.name, m);
      raw = m.raw;
    }
  }
  const hashSource = made.get((o.hashFromPreview ? largestFirst[0] : largestFirst[largestFirst.length - 1]).name)!.raw;
  return { renditions: plan.renditions.map((r) => made.get(r.name)!.img), gray9x8: await gray9x8(hashSource) };
}
