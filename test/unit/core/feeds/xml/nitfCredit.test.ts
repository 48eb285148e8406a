import { looksLikePerson, readNitf } from '../../../../../src/core/feeds/xml/nitf';

const DROP = '/srv/drop/nitf/story.xml';
const doc = (bodyHead: string, content: string): string =>
  `<nitf><head><docdata><doc-id id-string="D1"/></docdata></head><body><body.head>${bodyHead}</body.head><body.content>${content}</body.content></body></nitf>`;
const media = (inner: string): string =>
  `<media media-type="image"><media-reference source="p.jpg" mime-type="image/jpeg"/>${inner}</media>`;

describe('NITF: the photo credit comes from the media block, never from the article byline', () => {
  it("an article's byline is not the photo's creator; its caption keeps the photo's own credit", () => {
    const caption = 'Faktasjekk av et bilde. Foto: NTB / Scanpix, montasje av Faktisk.no';
    const { items } = readNitf(
      doc(
        '<byline>Av <person>Kari Nordmann</person></byline>',
        `<p>Artikkeltekst.</p>${media(`<media-caption>${caption}</media-caption>`)}`,
      ),
      DROP,
    );
    expect(items).toHaveLength(1);
    expect(items[0].captionRaw).toBe(caption);
    expect(items[0].iptc.byline).toBeUndefined();
    expect(items[0].iptc.credit).toBeUndefined();
  });

  it('a media-producer holding a surname is the creator, not an agency', () => {
    const { items } = readNitf(
      doc(
        '<byline>By <person>Alan Karben</person></byline>',
        `<p>Text.</p>${media('<media-producer>\n  Karben\n</media-producer>')}`,
      ),
      DROP,
    );
    expect(items[0].iptc.byline).toEqual(['Karben']);
    expect(items[0].iptc.credit).toBeUndefined();
  });

  it('a media-producer naming an agency (or photographer/agency) is the credit', () => {
    const credit = (producer: string) =>
      readNitf(doc('', media(`<media-producer>${producer}</media-producer>`)), DROP).items[0].iptc;
    expect(credit('NTB Scanpix')).toMatchObject({ credit: 'NTB Scanpix' });
    expect(credit('Heiko Junge / NTB scanpix')).toMatchObject({ credit: 'Heiko Junge / NTB scanpix' });
    expect(credit('AP').byline).toBeUndefined();
  });

  it('a byline that says it is the photo byline is the creator even in an article', () => {
    const { items } = readNitf(
      doc('<byline>Foto: <person>Ola Nordmann</person></byline>', `<p>Text.</p>${media('')}`),
      DROP,
    );
    expect(items[0].iptc.byline).toEqual(['Ola Nordmann']);
  });

  it('media-metadata credit and copyright belong to the photo', () => {
    const { items } = readNitf(
      doc(
        '',
        media('<media-metadata name="credit" value="EPA"/><media-metadata name="copyright" value="© EPA 2020"/>'),
      ),
      DROP,
    );
    expect(items[0].iptc).toMatchObject({ credit: 'EPA', copyright: '© EPA 2020' });
  });

  it('puts a multi-line hl1 on one line', () => {
    const { items } = readNitf(doc('<hedline><hl1>\n   Tides\n   high today\n</hl1></hedline>', media('')), DROP);
    expect(items[0].iptc.headline).toBe('Tides high today');
  });
});

describe('NITF items that are not pictures', () => {
  it('a text story is one skipped text item', () => {
    const r = readNitf(doc('<hedline><hl1>Words</hl1></hedline>', '<p>Only words.</p>'), DROP);
    expect(r.items).toEqual([]);
    expect(r.skipped).toEqual([
      { kind: 'text', label: 'nitf (D1) at line 1', reason: 'a text story without image media' },
    ]);
  });

  it('video and audio media are skipped by kind beside the image', () => {
    const r = readNitf(doc('', `${media('')}<media media-type="video"/><media media-type="audio"/>`), DROP);
    expect(r.items).toHaveLength(1);
    expect(r.skipped.map((s) => s.kind)).toEqual(['video', 'audio']);
  });
});

describe('looksLikePerson', () => {
  it.each([['Karben'], ['Heiko Junge'], ['Ludwig van Beethoven'], ['MARKO DJURICA'], ['Anne-Marie Ødegård']])(
    '%s is a person',
    (v) => {
      expect(looksLikePerson(v)).toBe(true);
    },
  );
  it.each([['AP'], ['NTB Scanpix'], ['Reuters'], ['Jane Halloran/Northwind Press'], ['EPA Images'], ['Pool Photo']])(
    '%s is not',
    (v) => {
      expect(looksLikePerson(v)).toBe(false);
    },
  );
});
