import { parseCsvManifest } from '../../../../src/core/feeds/csvManifest';

/**
 * Quoting cases hand-made manifests hit, pinned when the hand-written tokenizer was swapped for
 * csv-parse: both readers give these results.
 */
const FEED = '/srv/drop/csv/manifest.csv';

describe('parseCsvManifest quoting a person would write', () => {
  it('keeps a lone quote inside an unquoted field as a character (inch marks)', () => {
    const { items, errors } = parseCsvManifest('id,caption\n1,A 12" record and a 5\'10" guard\n2,next\n', FEED);
    expect(errors).toEqual([]);
    expect(items.map((i) => [i.agencyId, i.captionRaw, i.source.line])).toEqual([
      ['1', 'A 12" record and a 5\'10" guard', 2],
      ['2', 'next', 3],
    ]);
  });

  it('reads a properly quoted field that starts with a quote, without an error', () => {
    const { items, errors } = parseCsvManifest('id,caption\n1,"""Yes"", she said"\n', FEED);
    expect(errors).toEqual([]);
    expect(items[0].captionRaw).toBe('"Yes", she said');
  });

  it('names the field with text after its closing quote, and reads the next rows', () => {
    const { items, errors } = parseCsvManifest(
      'id,headline,caption\n1,ok,"broken" tail\n2,fine,"x\ny"\n3,last,z\n',
      FEED,
    );
    expect(items.map((i) => [i.agencyId, i.source.line])).toEqual([
      ['2', 3],
      ['3', 5],
    ]);
    expect(errors).toEqual([
      {
        line: 2,
        code: 'FEED_MALFORMED',
        message: `${FEED} line 2: unexpected text after a closing quote in field 3 (a quote inside a quoted field is written "")`,
      },
    ]);
  });

  it('counts lines across CRLF, LF and lone CR, inside and outside quotes', () => {
    const csv = 'id,caption\r\n1,"a\r\nb"\r\n2,"c\nd\re"\r3,f\n\r\n4,g';
    const { items, errors } = parseCsvManifest(csv, FEED);
    expect(errors).toEqual([]);
    expect(items.map((i) => [i.agencyId, i.source.line, i.captionRaw])).toEqual([
      ['1', 2, 'a\r\nb'],
      ['2', 4, 'c\nd\re'],
      ['3', 7, 'f'],
      ['4', 9, 'g'],
    ]);
  });

  it('reports a quote never closed at the line its row starts, after quoted rows over several lines', () => {
    const { items, errors } = parseCsvManifest('id,caption\n1,"two\nlines"\n\n2,"open\nand on\n', FEED);
    expect(items.map((i) => i.agencyId)).toEqual(['1']);
    expect(errors).toEqual([
      { line: 5, code: 'FEED_MALFORMED', message: `${FEED} line 5: a quoted field is never closed (missing ")` },
    ]);
  });

  it('skips a line of spaces but reads a row of one quoted empty field', () => {
    const { items, errors } = parseCsvManifest('caption\n   \n""\nx\n', FEED);
    expect(errors).toEqual([]);
    expect(items.map((i) => [i.captionRaw, i.source.line])).toEqual([
      ['', 3],
      ['x', 4],
    ]);
  });
});
