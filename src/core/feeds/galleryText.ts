import type { FeedItem } from '../../schemas/feedItem';

/** A gallery item's title line ends in a slideshow counter such as "(12 of41)" or "(3 of 41)". */
const COUNTER_LINE = /^(.*?)\s*\((\d{1,4})\s*of\s*(\d{1,4})\)\s*$/i;

export interface GalleryFeed {
  article: string;
  items: FeedItem[];
  warnings: string[];
}

export function looksLikeGallery(text: string): boolean {
  let n = 0;
  for (const line of text.split(/\r?\n/)) {
    if (COUNTER_LINE.test(line) && ++n >= 1) return true;
  }
  return false;
}

/**
 * Gallery text as pasted from a news site: an article, then items each introduced by a title
 * line ending in a counter and followed by the caption. The article is kept for the batch, never
 * taken for a caption. `captionRaw` holds the title line and caption lines exactly as received.
 */
export function parseGalleryText(text: string, file: string): GalleryFeed {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const starts: number[] = [];
  lines.forEach((line, i) => {
    if (COUNTER_LINE.test(line)) starts.push(i);
  });
  const warnings: string[] = [];
  const article = lines
    .slice(0, starts[0] ?? lines.length)
    .join('\n')
    .trim();
  const items: FeedItem[] = starts.map((start, position) => {
    const m = COUNTER_LINE.exec(lines[start])!;
    const end = starts[position + 1] ?? lines.length;
    const body = lines.slice(start + 1, end);
    while (body.length && body[body.length - 1].trim() === '') body.pop();
    const title = m[1].trim();
    const item: FeedItem = {
      source: {
        file,
        position,
        line: start + 1,
        counter: Number(m[2]),
        counterTotal: Number(m[3]),
        format: 'gallery-text',
      },
      captionRaw: [lines[start], ...body].join('\n'),
      title: title || undefined,
      iptc: {},
      image: null,
    };
    if (body.join('').trim() === '') {
      warnings.push(`${file}:${start + 1}: item ${m[2]} of ${m[3]} has no caption`);
    }
    return item;
  });

  const totals = new Set(items.map((i) => i.source.counterTotal));
  if (totals.size > 1) warnings.push(`${file}: items disagree on the gallery size (${[...totals].join(', ')})`);
  const declared = items[0]?.source.counterTotal;
  if (declared !== undefined && declared !== items.length) {
    warnings.push(`${file}: the counters announce ${declared} items but ${items.length} were found`);
  }
  items.forEach((it, i) => {
    if (it.source.counter !== i + 1) {
      warnings.push(`${file}:${it.source.line}: item ${i + 1} carries counter ${it.source.counter}`);
    }
  });
  return { article, items, warnings };
}
