import { readNotice } from '../../../../src/core/kills/readNotice';
import { readRelease } from '../../../../src/core/release/readRelease';
import { readRights } from '../../../../src/core/rights/readRights';
import { killStatusSchema, noticeSchema } from '../../../../src/schemas/notice';
import { catalogRecordSchema } from '../../../../src/schemas/record';
import { releaseSchema } from '../../../../src/schemas/release';
import { rightsSchema } from '../../../../src/schemas/rights';
import { tokenize } from '../../../../src/core/rights/tokens';
import { record as recordAt } from '../../web/records';

const input = {
  texts: [
    {
      source: 'iptc:specialInstructions' as const,
      text: 'MANDATORY KILL: photo LON805. EMBARGOED UNTIL 0001 GMT SATURDAY MARCH 9, 2024. OUT: CANADA; NO SALES',
    },
  ],
  referenceTime: '2024-03-05T12:00:00Z',
};

const record = recordAt(0, { agencyId: 'LON805' });

describe('schemas', () => {
  it('validate what the readers return', () => {
    expect(rightsSchema.parse(readRights(input)).restrictions).toEqual(['no-sales']);
    expect(releaseSchema.parse(readRelease(input)).embargoUntil!.at).toBe('2024-03-09T00:01:00.000Z');
    expect(noticeSchema.parse(readNotice(input)).targets).toEqual(['LON805']);
  });

  it('accept a record without the new fields, and with them', () => {
    expect(() => catalogRecordSchema.parse(record)).not.toThrow();
    const killed = {
      ...record,
      rights: readRights(input),
      release: readRelease(input),
      status: 'killed',
      killedAt: '2024-03-10T20:00:00.000Z',
      reason: 'manipulated',
      notice: {
        itemId: 'c-0001',
        batchId: 'c',
        kind: 'kill',
        source: 'iptc:specialInstructions',
        text: 'MANDATORY KILL',
        targets: ['LON805'],
        receivedAt: '2024-03-10T20:00:00.000Z',
      },
      supersededBy: null,
    };
    const parsed = catalogRecordSchema.parse(killed);
    expect(parsed.status).toBe('killed');
    expect(parsed.rights!.outMarkets[0].code).toBe('CA');
    expect(() => catalogRecordSchema.parse({ ...record, status: 'deleted' })).toThrow();
    expect(() =>
      killStatusSchema.parse({ status: 'active', killedAt: null, reason: null, notice: null, supersededBy: null }),
    ).not.toThrow();
  });
});

describe('tokenize', () => {
  it('folds case and diacritics, joins dotted abbreviations, and marks hard breaks', () => {
    const t = tokenize('Nur für U.S. OUT; NO-SALES - Ärö');
    expect(t.map((x) => x.norm)).toEqual(['NUR', 'FUR', 'US', 'OUT', 'NO', 'SALES', 'ARO']);
    expect(t.map((x) => x.breakBefore)).toEqual([true, false, false, false, true, false, true]);
    expect(t.map((x) => x.upper)).toEqual([false, false, true, true, true, true, false]);
    expect(t[2]).toMatchObject({ start: 8, end: 12 });
  });

  it('keeps offsets in the original text for emoji and CJK', () => {
    const text = '📷 東京 NO ARCHIVES';
    const t = tokenize(text);
    expect(t.map((x) => text.slice(x.start, x.end))).toEqual(['東京', 'NO', 'ARCHIVES']);
  });
});
