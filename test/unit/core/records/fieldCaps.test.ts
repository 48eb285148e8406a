import { cleanCaption } from '../../../../src/core/captions/cleanCaption';
import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { defaultCreditRules } from '../../../../src/core/credits/rules';
import { FIELD_CAPS, MAX_BYLINES, capFields } from '../../../../src/core/records/fieldCaps';

const where = { file: '/feeds/wire.ndjson', item: 'item-7' };

describe('field caps (attack 4)', () => {
  it('leaves real wire metadata alone: no warning, the same strings', () => {
    const iptc = {
      caption: 'LONDON, ENGLAND - MAY 30: Fans wait outside the stadium. (Photo by Leon Neal/Getty Images)',
      credit: 'Mandatory Credit: Photo by Ravi Menon/NurPhoto/Shutterstock (16507315bs)',
      byline: ['Leon Neal'],
      source: 'Getty Images Europe',
      copyright: '2024 Getty Images',
    };
    const captionRaw = `${'A long caption with an editors note. '.repeat(200)}(Photo by Leon Neal/Getty Images)`; // 7,400 characters: past IIM's 2,000
    const out = capFields({ captionRaw, title: 'Fans', iptc }, where);
    expect(out.warnings).toEqual([]);
    expect(out.captionRaw).toBe(captionRaw);
    expect(out.iptc).toEqual(iptc);
  });

  it('cuts an 80,000-character credit to its cap for parsing, with a warning naming file, item, field, length and cap', () => {
    const credit = 'ł'.repeat(80_000);
    const out = capFields({ captionRaw: '', iptc: { credit } }, where);
    expect(out.iptc.credit).toHaveLength(FIELD_CAPS.credit);
    expect(out.warnings).toEqual([
      expect.objectContaining({
        code: 'FIELD_CAPPED',
        file: where.file,
        item: 'item-7',
        field: 'iptc.credit',
        length: 80_000,
        cap: FIELD_CAPS.credit,
      }),
    ]);
    expect(out.warnings[0].message).toBe(
      `/feeds/wire.ndjson, item item-7: iptc.credit is 80000 characters, over the cap of ${FIELD_CAPS.credit}; only the first ${FIELD_CAPS.credit} are parsed, the whole value is kept as received`,
    );
  });

  it('keeps the start and the end of an over-long caption, so its credit tail is still read', () => {
    const captionRaw = `${'Łódź żółć gęślą jaźń. '.repeat(50_000)}(Photo by Leon Neal/Getty Images)`;
    const out = capFields({ captionRaw, iptc: {} }, where);
    expect(out.captionRaw.length).toBeLessThanOrEqual(FIELD_CAPS.caption);
    expect(out.captionRaw.startsWith('Łódź żółć')).toBe(true);
    expect(out.warnings.map((w) => [w.field, w.length, w.cap])).toEqual([
      ['caption', captionRaw.length, FIELD_CAPS.caption],
    ]);
    const cleaned = cleanCaption(out.captionRaw);
    expect(cleaned.creditTail).toBe('(Photo by Leon Neal/Getty Images)');
    const credit = normalizeCredit(
      { captionTail: cleaned.creditTail, byline: [], creditLine: null, source: null, copyright: null },
      defaultCreditRules(),
    );
    expect([credit.creators, credit.agency]).toEqual([['Leon Neal'], 'Getty Images']);
  });

  it('never splits an emoji (a surrogate pair) at the cut', () => {
    const credit = 'a' + '📷'.repeat(1_000);
    const out = capFields({ captionRaw: '', iptc: { credit } }, where);
    expect(out.iptc.credit!.length).toBeLessThanOrEqual(FIELD_CAPS.credit);
    expect(out.iptc.credit).toBe('a' + '📷'.repeat((FIELD_CAPS.credit - 2) / 2));
    expect(Buffer.from(out.iptc.credit!, 'utf8').toString('utf8')).toBe(out.iptc.credit);
  });

  it('reads at most 20 by-lines, each capped, and says so', () => {
    const byline = Array.from({ length: 500 }, (_, i) => (i === 0 ? 'Ł'.repeat(5_000) : `Photographer ${i}`));
    const out = capFields({ captionRaw: '', iptc: { byline } }, where);
    expect(out.iptc.byline).toHaveLength(MAX_BYLINES);
    expect(out.iptc.byline![0]).toHaveLength(FIELD_CAPS.byline);
    expect(out.warnings.map((w) => [w.field, w.length, w.cap])).toEqual([
      ['iptc.byline', 500, MAX_BYLINES],
      ['iptc.byline[0]', 5_000, FIELD_CAPS.byline],
    ]);
  });
});
