import { readFileSync } from 'node:fs';
import { parseGalleryText, looksLikeGallery } from '../../../../src/core/feeds/galleryText';
import { SEED_GALLERY } from '../../../helpers/testEnv';

describe('gallery text (the seed feed)', () => {
  const text = readFileSync(SEED_GALLERY, 'utf8');
  const feed = parseGalleryText(text, SEED_GALLERY);

  it('finds all 41 items in order, with their counters', () => {
    expect(feed.items).toHaveLength(41);
    expect(feed.items.map((i) => i.source.counter)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1));
    expect(feed.items.every((i) => i.source.counterTotal === 41)).toBe(true);
    expect(feed.warnings).toEqual([]);
  });

  it('takes nothing of the article for a caption', () => {
    const article = 'Supporters of Julian Assange are gathering outside the Ecuadorian embassy';
    expect(feed.article.startsWith(article)).toBe(true);
    expect(feed.article).toContain('SEE ALSO');
    for (const item of feed.items) {
      expect(item.captionRaw).not.toContain(article);
      expect(item.captionRaw).not.toContain('SEE ALSO');
    }
  });

  it('keeps the title line and the caption exactly as received', () => {
    const first = feed.items[0];
    expect(first.title).toBeUndefined();
    expect(first.captionRaw.split('\n')[0]).toBe('(01 of41)');
    expect(first.captionRaw).toMatch(
      /^\(01 of41\)\nA masked supporter of Julian Assange .* Photo credit: Dominic Lipinski\/PA$/s,
    );
    const twelve = feed.items[11];
    expect(twelve.title).toBe('A supporter of Wikileaks founder Julian');
    expect(twelve.captionRaw).toContain(
      'AFP PHOTO / LEON NEAL (Photo credit should read LEON NEAL/AFP/GettyImages) (credit:Getty)',
    );
    const sixteen = feed.items[15];
    expect(sixteen.title).toBe('Supreme Court Rules On Extradition Of Wikileaks Founder Julian Assange');
    expect(sixteen.captionRaw.split('\n')[1]).toMatch(/^LONDON, ENGLAND - MAY 30: /);
  });

  it('records the line each item starts on, for error messages', () => {
    const lines = text.split('\n');
    for (const item of feed.items) expect(lines[item.source.line! - 1]).toMatch(/\(\d+ of41\)$/);
  });

  it('reports a gallery whose counters do not add up', () => {
    const broken = parseGalleryText('Intro\n(01 of3)\nFirst caption.\n(03 of3)\nThird caption.\n', 'x.txt');
    expect(broken.items).toHaveLength(2);
    expect(broken.warnings.join('\n')).toMatch(/announce 3 items but 2 were found/);
    expect(broken.warnings.join('\n')).toMatch(/item 2 carries counter 3/);
  });

  it('is recognized by its counters, not its name', () => {
    expect(looksLikeGallery(text)).toBe(true);
    expect(looksLikeGallery('just some text\nwith lines (but no counter)\n')).toBe(false);
  });
});
