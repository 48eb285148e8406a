import sharp from 'sharp';

/**
 * A photographic-looking JPEG: smooth colour fields, edges and sensor-like noise, so that the
 * encoder and decoder do real work (flat test cards compress to nothing and flatter every benchmark).
 * Deterministic for a given seed.
 */
export async function syntheticPhoto(opts: {
  width: number;
  height: number;
  seed: number;
  quality?: number;
}): Promise<Buffer> {
  const { width, height, seed } = opts;
  let s = seed >>> 0 || 1;
  const rnd = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  const f1 = 1 + rnd() * 3;
  const f2 = 1 + rnd() * 4;
  const phase = rnd() * Math.PI * 2;
  const hue = [rnd(), rnd(), rnd()];
  const raw = Buffer.allocUnsafe(width * height * 3);
  const horizon = height * (0.4 + rnd() * 0.3);
  let i = 0;
  for (let y = 0; y < height; y++) {
    const v = y / height;
    const sky = y < horizon;
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const wave = Math.sin(u * f1 * 6.28 + phase) * Math.cos(v * f2 * 6.28) * 40;
      const noise = (rnd() - 0.5) * 36;
      const base = sky ? 150 + 60 * (1 - v) : 70 + 50 * Math.sin(u * 9 + v * 3);
      raw[i++] = clamp(base * (0.6 + hue[0] * 0.6) + wave + noise);
      raw[i++] = clamp(base * (0.6 + hue[1] * 0.6) + wave * 0.7 + noise);
      raw[i++] = clamp(base * (0.6 + hue[2] * 0.6) - wave * 0.5 + noise);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: opts.quality ?? 88, chromaSubsampling: '4:2:0' })
    .toBuffer();
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v | 0;
}
