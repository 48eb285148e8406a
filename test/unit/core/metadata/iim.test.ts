import { parseIim } from '../../../../src/core/metadata';
import { UTF8_DECLARATION, ds, irbResource } from './helpers';

describe('parseIim character sets', () => {
  it('reads IIM without 1:90 as Latin-1 / Windows-1252 (curly quotes included)', () => {
    const caption = Buffer.from([0x93, 0x43, 0x61, 0x66, 0xe9, 0x94, 0x20, 0xa9, 0x20, 0x80]); // “Café” © €
    const r = parseIim(Buffer.concat([ds(2, 120, caption), ds(2, 80, 'Zo\xeb')]));
    expect(r.iptc.caption).toBe('\u201cCafé\u201d © €');
    expect(r.iptc.byline).toEqual(['Zoë']);
    expect(r.utf8).toBe(false);
  });

  it('reads IIM as UTF-8 when 1:90 is ESC % G', () => {
    const r = parseIim(Buffer.concat([UTF8_DECLARATION, ds(2, 120, 'Łódź — 北京 📷', true)]));
    expect(r.iptc.caption).toBe('Łódź — 北京 📷');
    expect(r.utf8).toBe(true);
  });

  it('keeps the Latin-1 reading of undeclared UTF-8 bytes, as ExifTool does', () => {
    const r = parseIim(ds(2, 90, 'Montréal', true));
    expect(r.iptc.city).toBe('MontrÃ©al');
  });

  it('applies 1:90 to the whole block even when the envelope comes after the application record', () => {
    const r = parseIim(Buffer.concat([ds(2, 90, 'Montréal', true), UTF8_DECLARATION]));
    expect(r.iptc.city).toBe('Montréal');
  });

  it('warns about an unknown ESC % character set only when it changes some text', () => {
    const unknown = ds(1, 90, '\x1b%5');
    expect(parseIim(Buffer.concat([unknown, ds(2, 90, 'PARIS')])).warnings).toEqual([]);
    const r = parseIim(Buffer.concat([unknown, ds(2, 90, 'Orl\xe9ans')]));
    expect(r.iptc.city).toBe('Orléans');
    expect(r.warnings.join()).toMatch(/character set/);
  });
});

describe('parseIim values', () => {
  it('keeps text exactly as stored except trailing NULs', () => {
    const r = parseIim(Buffer.concat([ds(2, 120, '  two  spaces \n kept  \0\0'), ds(2, 105, 'Headline\0')]));
    expect(r.iptc.caption).toBe('  two  spaces \n kept  ');
    expect(r.iptc.headline).toBe('Headline');
  });

  it('collects repeatable datasets in order and leaves empty values out', () => {
    const r = parseIim(
      Buffer.concat([
        ds(2, 25, 'b'),
        ds(2, 25, ''),
        ds(2, 25, 'a'),
        ds(2, 80, 'One'),
        ds(2, 80, 'Two'),
        ds(2, 110, ''),
      ]),
    );
    expect(r.iptc.keywords).toEqual(['b', 'a']);
    expect(r.iptc.byline).toEqual(['One', 'Two']);
    expect(r.iptc).not.toHaveProperty('credit');
    expect(r.datasets).toHaveLength(6); // the raw list still has the empties
  });

  it('takes the last of a non-repeatable dataset written twice and joins several writers', () => {
    const r = parseIim(Buffer.concat([ds(2, 110, 'First'), ds(2, 110, 'Second'), ds(2, 122, 'ab'), ds(2, 122, 'cd')]));
    expect(r.iptc.credit).toBe('Second');
    expect(r.iptc.writer).toBe('ab, cd');
  });

  it('turns date and time into ISO 8601 at the precision given', () => {
    expect(parseIim(Buffer.concat([ds(2, 55, '20140716'), ds(2, 60, '130003+0000')])).iptc.dateCreated).toBe(
      '2014-07-16T13:00:03+00:00',
    );
    expect(parseIim(Buffer.concat([ds(2, 55, '20140716'), ds(2, 60, '130003')])).iptc.dateCreated).toBe(
      '2014-07-16T13:00:03',
    );
    expect(parseIim(ds(2, 55, '20140716')).iptc.dateCreated).toBe('2014-07-16');
    expect(parseIim(ds(2, 55, '20140700')).iptc.dateCreated).toBe('2014-07');
    expect(parseIim(Buffer.concat([ds(2, 55, '20140000'), ds(2, 60, '130003')])).iptc.dateCreated).toBe('2014');
  });

  it('leaves out a date that is not one, with a warning', () => {
    const r = parseIim(Buffer.concat([ds(2, 55, 'July 16'), ds(2, 120, 'caption')]));
    expect(r.iptc.dateCreated).toBeUndefined();
    expect(r.iptc.caption).toBe('caption');
    expect(r.warnings.join()).toMatch(/2:55/);
  });

  it('gives integer datasets in decimal', () => {
    const r = parseIim(Buffer.concat([ds(2, 0, Buffer.from([0, 4])), ds(1, 20, Buffer.from([0, 11]))]));
    expect(r.datasets).toEqual([
      { record: 2, dataset: 0, value: '4' },
      { record: 1, dataset: 20, value: '11' },
    ]);
  });

  it('reads extended-length datasets', () => {
    const long = 'x'.repeat(40000);
    const head = Buffer.from([0x1c, 2, 120, 0x80, 0x04, 0, 0, 0, 0]);
    head.writeUInt32BE(long.length, 5);
    const r = parseIim(Buffer.concat([head, Buffer.from(long), ds(2, 105, 'after')]));
    expect(r.iptc.caption).toHaveLength(40000);
    expect(r.iptc.headline).toBe('after');
  });

  it('marks values that fill their dataset maximum', () => {
    const r = parseIim(
      Buffer.concat([
        ds(2, 110, 'c'.repeat(32)),
        ds(2, 115, 's'.repeat(31)),
        ds(2, 25, 'k'),
        ds(2, 25, 'k'.repeat(64)),
      ]),
    );
    expect([...r.atLimit].sort()).toEqual(['credit', 'keywords#1']);
  });
});

describe('parseIim containers', () => {
  const iim = Buffer.concat([ds(2, 120, 'In a Photoshop block'), ds(2, 110, 'Credit')]);

  it('accepts a Photoshop IRB with its header, as sharp returns it for a JPEG', () => {
    const block = Buffer.concat([
      Buffer.from('Photoshop 3.0\0', 'latin1'),
      irbResource(0x03ed, Buffer.alloc(16)),
      irbResource(0x0404, iim),
    ]);
    expect(parseIim(block).iptc).toEqual({ caption: 'In a Photoshop block', credit: 'Credit' });
  });

  it('accepts bare 8BIM resources', () => {
    expect(parseIim(irbResource(0x0404, iim)).iptc.credit).toBe('Credit');
  });
});

describe('parseIim on damaged input never throws', () => {
  it('keeps the datasets before a broken marker', () => {
    const r = parseIim(Buffer.concat([ds(2, 105, 'kept'), Buffer.from('garbage here')]));
    expect(r.iptc.headline).toBe('kept');
    expect(r.warnings.join()).toMatch(/bad dataset marker/);
  });

  it('keeps the datasets before one whose length runs past the end', () => {
    const cut = ds(2, 120, 'a long caption that was cut').subarray(0, 12);
    const r = parseIim(Buffer.concat([ds(2, 105, 'kept'), cut]));
    expect(r.iptc).toEqual({ headline: 'kept' });
    expect(r.warnings.join()).toMatch(/claims \d+ bytes/);
  });

  it('ignores NUL padding without a warning', () => {
    const r = parseIim(Buffer.concat([ds(2, 105, 'kept'), Buffer.alloc(7)]));
    expect(r.iptc.headline).toBe('kept');
    expect(r.warnings).toEqual([]);
  });

  it('returns nothing for bytes that are not IIM', () => {
    for (const junk of [
      Buffer.alloc(0),
      Buffer.from('hello world'),
      Buffer.from([0x1c]),
      Buffer.from('Photoshop 3.0\0' + 'x'.repeat(30), 'latin1'),
    ]) {
      const r = parseIim(junk);
      expect(r.iptc).toEqual({});
    }
    expect(parseIim(Buffer.from('hello world')).warnings).not.toEqual([]);
  });
});
