import { readRelease, releaseState } from '../../../../src/core/release/readRelease';
import { releaseSchema, releaseStateSchema } from '../../../../src/schemas/release';
import type { RightsSource } from '../../../../src/schemas/rights';

/** Embargo and expiry notes as agencies write them, read against an item sent on Tuesday 5 March 2024, 12:00 UTC. */
const SENT = '2024-03-05T12:00:00Z';

const embargo = (text: string, opts: { agency?: string; source?: RightsSource; ref?: string | null } = {}) =>
  readRelease({
    texts: [{ source: opts.source ?? 'iptc:specialInstructions', text }],
    referenceTime: opts.ref === undefined ? SENT : opts.ref,
    agency: opts.agency,
  });

type Row = [style: string, text: string, agency: string, at: string | null];

const EMBARGOES: Row[] = [
  ['AP', 'EMBARGOED UNTIL 0001 GMT SATURDAY MARCH 9, 2024', 'AP', '2024-03-09T00:01:00.000Z'],
  ['AP', 'HOLD FOR RELEASE UNTIL 12:01 A.M. EDT WEDNESDAY, MAY 1, 2024', 'AP', '2024-05-01T04:01:00.000Z'],
  ['AP', 'HOLD FOR RELEASE - 6 P.M. ET THURSDAY, MARCH 7, 2024', 'AP', '2024-03-07T23:00:00.000Z'],
  [
    'AP (summer, ET)',
    'EMBARGOED FOR RELEASE UNTIL 5 P.M. ET THURSDAY, JULY 11, 2024',
    'AP',
    '2024-07-11T21:00:00.000Z',
  ],
  ['AP (no year)', 'EMBARGOED UNTIL NOON EST MARCH 11', 'AP', '2024-03-11T17:00:00.000Z'],
  ['AP (weekday only)', 'EMBARGOED UNTIL 5 P.M. ET THURSDAY', 'AP', '2024-03-07T22:00:00.000Z'],
  ['AP (midnight)', 'EMBARGOED UNTIL MIDNIGHT ET WEDNESDAY', 'AP', '2024-03-07T05:00:00.000Z'],
  ['Reuters', 'EMBARGOED UNTIL 00:01 GMT, 10 MARCH 2024', 'REUTERS', '2024-03-10T00:01:00.000Z'],
  ['Reuters (two zones)', 'EMBARGOED UNTIL 1500 GMT/1000 ET ON MARCH 12, 2024', 'REUTERS', '2024-03-12T15:00:00.000Z'],
  ['PA (UK time, no zone)', 'EMBARGOED TO 0001 SATURDAY MARCH 9', 'PA', '2024-03-09T00:01:00.000Z'],
  ['PA (summer, no zone)', 'EMBARGOED TO 2230 FRIDAY JUNE 7 2024', 'PA', '2024-06-07T21:30:00.000Z'],
  ['PA', 'NOT FOR PUBLICATION BEFORE Tuesday 12 March 2024 at 00:01 GMT', 'PA', '2024-03-12T00:01:00.000Z'],
  ['AFP', 'EMBARGO: 10 March 2024 00:01 CET', 'AFP', '2024-03-09T23:01:00.000Z'],
  ['AFP (French)', "Sous embargo jusqu'au 10 mars 2024 à 00h01 (heure de Paris)", 'AFP', '2024-03-09T23:01:00.000Z'],
  ['dpa', 'Sperrfrist: 10.03.2024, 00:01 Uhr', 'DPA', '2024-03-09T23:01:00.000Z'],
  ['dpa (summer)', 'Sperrfrist 10. Juli 2024, 12.00 Uhr MESZ', 'DPA', '2024-07-10T10:00:00.000Z'],
  ['EPA (offset)', 'EMBARGOED UNTIL 10 MARCH 2024 05:00 +0100', 'EPA', '2024-03-10T04:00:00.000Z'],
  ['CP', 'EMBARGOED UNTIL 6 A.M. ET, THURSDAY, MARCH 7, 2024', 'CP', '2024-03-07T11:00:00.000Z'],
  ['ISO', 'EMBARGOED UNTIL 2024-03-10T00:01:00Z', 'AP', '2024-03-10T00:01:00.000Z'],
  ['UTC offset', 'NOT TO BE PUBLISHED BEFORE 0900 UTC+2 MARCH 15, 2024', 'AP', '2024-03-15T07:00:00.000Z'],
  ['Australia', 'EMBARGOED UNTIL 10AM AEDT MARCH 8, 2024', 'AAP', '2024-03-07T23:00:00.000Z'],
  ['Sunday paper', 'STRICTLY EMBARGOED UNTIL 22:30 GMT SATURDAY 9 MARCH 2024', 'PA', '2024-03-09T22:30:00.000Z'],
  // Weekdays with a modifier, sent on Tuesday 5 March: never the coming Saturday (that released them a week early).
  ['weekday after next', 'EMBARGOED UNTIL 0001 GMT THE SATURDAY AFTER NEXT', 'PA', '2024-03-16T00:01:00.000Z'],
  ['British "Saturday week"', 'EMBARGOED UNTIL 0001 SATURDAY WEEK', 'PA', '2024-03-16T00:01:00.000Z'],
  ['"next Thursday": the later reading', 'EMBARGOED UNTIL 5 P.M. ET NEXT THURSDAY', 'AP', '2024-03-14T21:00:00.000Z'],
  ['"next Thursday" before the time', 'EMBARGOED UNTIL NEXT THURSDAY 5 P.M. ET', 'AP', '2024-03-14T21:00:00.000Z'],
  ['"Thursday next week"', 'EMBARGOED UNTIL 5 P.M. ET THURSDAY NEXT WEEK', 'AP', '2024-03-14T21:00:00.000Z'],
  ['"this Saturday"', 'EMBARGOED UNTIL 0001 GMT THIS SATURDAY', 'PA', '2024-03-09T00:01:00.000Z'],
];

describe('embargoes written in notes', () => {
  it.each(EMBARGOES)('%s: %s', (_style, text, agency, at) => {
    const r = embargo(text, { agency });
    expect(r.embargoUntil?.at).toBe(at);
    expect(r.embargoUntil?.text.length).toBeGreaterThan(10);
    expect(text).toContain(r.embargoUntil!.text.replace(/\s+/g, ' '));
    expect(() => releaseSchema.parse(r)).not.toThrow();
  });

  it('says what it assumed, and lowers its confidence when it did', () => {
    const pa = embargo('EMBARGOED TO 0001 SATURDAY MARCH 9', { agency: 'PA' });
    expect(pa.embargoUntil!.zone).toBe('Europe/London');
    expect(pa.embargoUntil!.assumed).toEqual([
      'no time zone written: Europe/London (agency PA)',
      "year taken from the item's date",
    ]);
    expect(pa.confidence).toBe('low');
    const exact = embargo('EMBARGOED UNTIL 00:01 GMT, 10 MARCH 2024');
    expect(exact.embargoUntil!.assumed).toEqual([]);
    expect(exact.confidence).toBe('high');
  });

  it('reads an ambiguous 03/09 date month first for North American agencies, day first elsewhere', () => {
    expect(embargo('EMBARGOED UNTIL 03/09/2024 0001 ET', { agency: 'AP' }).embargoUntil!.at).toBe(
      '2024-03-09T05:01:00.000Z',
    );
    expect(embargo('EMBARGOED UNTIL 03/09/2024 0001 GMT', { agency: 'PA' }).embargoUntil!.at).toBe(
      '2024-09-03T00:01:00.000Z',
    );
    // No zone and no agency: both readings are possible, the later one is kept so nothing is released early.
    expect(embargo('EMBARGOED UNTIL 03/09/2024').embargoUntil!.at).toBe('2024-09-03T00:00:00.000Z');
  });

  it('holds a photo until further notice when no time is given or it cannot be read', () => {
    for (const text of [
      'HOLD FOR RELEASE',
      'EMBARGOED UNTIL FURTHER NOTICE',
      'EMBARGOED',
      '*** EMBARGOED ***',
      'EMBARGOED UNTIL THE END OF THE SPEECH',
    ]) {
      const r = embargo(text);
      expect({ text, at: r.embargoUntil?.at }).toEqual({ text, at: null });
    }
  });

  it('cannot place a date without a year or a weekday without an item date, and holds it', () => {
    const r = embargo('EMBARGOED UNTIL 0001 GMT SATURDAY MARCH 9', { ref: null });
    expect(r.embargoUntil!.at).toBeNull();
    expect(r.embargoUntil!.assumed).toContain('no year written and no item date to take it from');
    expect(r.confidence).toBe('low');
  });

  it('keeps the latest of several embargoes', () => {
    const r = readRelease({
      texts: [
        { source: 'iptc:specialInstructions', text: 'EMBARGOED UNTIL 00:01 GMT, 10 MARCH 2024' },
        { source: 'caption:notes', text: 'EMBARGOED UNTIL 05:00 GMT, 10 MARCH 2024' },
      ],
    });
    expect(r.embargoUntil!.at).toBe('2024-03-10T05:00:00.000Z');
    expect(r.found).toHaveLength(2);
    expect(r.confidence).toBe('low');
  });

  it('does not read embargoes in ordinary captions', () => {
    const negatives = [
      'The EU extended its arms embargo until March 2025, diplomats said.',
      'Cuba has lived under a U.S. trade embargo since 1962.',
      'Oil tankers wait off the coast during the embargo on Monday.',
      'Fans hold up a banner reading "HOLD ON" before the match on March 9, 2024.',
      'A worker holds a sign for release of the hostages in Tel Aviv, March 9, 2024.',
    ];
    for (const text of negatives)
      expect({ text, r: embargo(text, { source: 'caption' }).embargoUntil }).toEqual({ text, r: null });
  });

  it('reads embargo notes written in capitals inside a caption', () => {
    const r = embargo('EMBARGOED UNTIL 0001 GMT SATURDAY MARCH 9, 2024 The winner of the prize poses in London.', {
      source: 'caption',
    });
    expect(r.embargoUntil!.at).toBe('2024-03-09T00:01:00.000Z');
  });
});

/**
 * Other embargo forms (issue 16 audit): Spanish, Italian and Portuguese dates ("9 DE MARZO DE 2024",
 * "9 MARZO 2024", "9 DE MARÇO"), and a date written after the time that cannot be read: before,
 * "EMBARGADA HASTA LAS 00:01 GMT DEL 9 DE MARZO DE 2024" read only the time and released the photo
 * on March 6, three days early.
 */
const MORE_EMBARGOES: Row[] = [
  [
    'EFE (time before the date)',
    'EMBARGADA HASTA LAS 00:01 GMT DEL 9 DE MARZO DE 2024',
    'EFE',
    '2024-03-09T00:01:00.000Z',
  ],
  [
    'EFE (date before the time)',
    'EMBARGO HASTA EL 9 DE MARZO DE 2024 A LAS 00:01 GMT',
    'EFE',
    '2024-03-09T00:01:00.000Z',
  ],
  [
    'EFE (no zone: Madrid)',
    'EMBARGADO HASTA EL SÁBADO 9 DE MARZO DE 2024 A LAS 00:01',
    'EFE',
    '2024-03-08T23:01:00.000Z',
  ],
  ['ANSA (Italian, no zone: Rome)', 'EMBARGO FINO ALLE ORE 00:01 DEL 9 MARZO 2024', 'ANSA', '2024-03-08T23:01:00.000Z'],
  ['ANSA (Italian, date first)', 'EMBARGO FINO AL 9 MARZO 2024 ORE 00:01 GMT', 'ANSA', '2024-03-09T00:01:00.000Z'],
  ['Lusa (Portuguese)', 'EMBARGO ATÉ ÀS 00H01 GMT DE 9 DE MARÇO DE 2024', 'AP', '2024-03-09T00:01:00.000Z'],
];

describe('embargoes in other languages and forms', () => {
  it.each(MORE_EMBARGOES)('%s: %s', (_style, text, agency, at) => {
    const r = embargo(text, { agency });
    expect(r.embargoUntil?.at).toBe(at);
    expect(() => releaseSchema.parse(r)).not.toThrow();
  });

  it('never releases early when a date follows the time but cannot be read: it holds the photo and says so', () => {
    for (const text of [
      'EMBARGOED UNTIL 00:01 GMT ON THE NINTH OF MARCH 2024',
      'EMBARGO HASTA LAS 00:01 GMT DEL NUEVE DE MARZO DE 2024',
    ]) {
      const r = embargo(text, { agency: 'AP' });
      expect({ text, at: r.embargoUntil?.at }).toEqual({ text, at: null });
      expect(r.embargoUntil!.assumed.join(' ')).toMatch(/date .*could not be read/);
      expect(r.confidence).toBe('low');
    }
    // A bare time with nothing date-like after it still means the next such time.
    expect(embargo('EMBARGOED UNTIL 00:01 GMT').embargoUntil!.at).toBe('2024-03-06T00:01:00.000Z');
    expect(embargo('EMBARGOED UNTIL 0001 GMT. Photo taken March 4, 2024.').embargoUntil!.at).toBe(
      '2024-03-06T00:01:00.000Z',
    );
  });
});

describe('expiry', () => {
  it('reads "no use after" dates as the end of the day named', () => {
    const r = embargo('NO USE AFTER 31 MARCH 2024', { agency: 'PA' });
    expect(r.expires!.at).toBe('2024-03-31T23:00:00.000Z'); // midnight at the end of 31 March, BST
    expect(r.embargoUntil).toBeNull();
    expect(embargo('NOT TO BE USED AFTER APRIL 30, 2024', { agency: 'AP' }).expires!.at).toBe(
      '2024-05-01T04:00:00.000Z',
    );
  });

  it('counts a usage window from the time of transmission', () => {
    const r = embargo(
      'HANDOUT PHOTO; ONE TIME USE ONLY. THIS IMAGE MAY BE USED ONLY FOR 14 DAYS FROM THE TIME OF TRANSMISSION',
      { agency: 'CP' },
    );
    expect(r.expires!.at).toBe('2024-03-19T12:00:00.000Z');
    expect(r.expires!.text).toBe('MAY BE USED ONLY FOR 14 DAYS FROM THE TIME OF TRANSMISSION');
    expect(embargo('USE WITHIN 48 HOURS').expires!.at).toBe('2024-03-07T12:00:00.000Z');
    const noRef = embargo('MAY BE USED ONLY FOR 14 DAYS', { ref: null });
    expect(noRef.expires!.at).toBeNull();
    expect(releaseState(noRef, '2030-01-01T00:00:00Z').state).toBe('available');
  });

  it('reads "next Friday" as the earlier Friday for an expiry (the embargo takes the later), and says so', () => {
    const r = embargo('NO USE AFTER NEXT FRIDAY', { agency: 'PA' });
    expect(r.expires!.at).toBe('2024-03-09T00:00:00.000Z'); // the end of Friday 8 March, GMT
    expect(r.expires!.assumed.join(' ')).toContain('"NEXT" can mean this week\'s or next week\'s: the earlier');
    expect(embargo('NO USE AFTER FRIDAY AFTER NEXT', { agency: 'PA' }).expires!.at).toBe('2024-03-16T00:00:00.000Z');
  });

  it('keeps the earliest of several expiries', () => {
    const r = readRelease({
      texts: [{ source: 'iptc:specialInstructions', text: 'NO USE AFTER 31 MARCH 2024' }],
      iptc: { expirationDate: '20240320' },
      referenceTime: SENT,
    });
    expect(r.expires!.source).toBe('iptc:expirationDate');
    expect(r.expires!.at).toBe('2024-03-21T00:00:00.000Z');
  });
});

describe('structured fields', () => {
  it('reads IPTC release and expiration dates and times in IIM and exiftool spellings', () => {
    const iim = readRelease({
      texts: [],
      iptc: {
        releaseDate: '20240310',
        releaseTime: '000100+0000',
        expirationDate: '20240410',
        expirationTime: '235900-0500',
      },
    });
    expect(iim.embargoUntil!.at).toBe('2024-03-10T00:01:00.000Z');
    expect(iim.expires!.at).toBe('2024-04-11T04:59:00.000Z');
    expect(iim.confidence).toBe('high');
    const exif = readRelease({ texts: [], iptc: { releaseDate: '2024:03:10', releaseTime: '00:01:00+01:00' } });
    expect(exif.embargoUntil!.at).toBe('2024-03-09T23:01:00.000Z');
    expect(exif.raw).toEqual([{ source: 'iptc:releaseDate', text: '2024:03:10 00:01:00+01:00' }]);
  });

  it('reads an IPTC date without a time as the start (release) or the end (expiration) of the day', () => {
    const r = readRelease({ texts: [], iptc: { releaseDate: '20240310', expirationDate: '20240410' }, agency: 'PA' });
    expect(r.embargoUntil!.at).toBe('2024-03-10T00:00:00.000Z');
    expect(r.expires!.at).toBe('2024-04-10T23:00:00.000Z');
  });

  it('holds a photo whose IPTC release date cannot be read, and says so', () => {
    const r = readRelease({ texts: [], iptc: { releaseDate: 'next week' } });
    expect(r.embargoUntil).toMatchObject({ at: null, source: 'iptc:releaseDate', text: 'next week' });
    expect(r.embargoUntil!.assumed[0]).toMatch(/could not be read/);
  });

  it('reads NewsML-G2 embargoed and pubStatus', () => {
    expect(readRelease({ texts: [], newsml: { embargoed: '2024-03-10T00:01:00+01:00' } }).embargoUntil!.at).toBe(
      '2024-03-09T23:01:00.000Z',
    );
    expect(readRelease({ texts: [], newsml: { embargoed: '' } }).embargoUntil).toMatchObject({
      at: null,
      source: 'newsml:embargoed',
    });
    expect(readRelease({ texts: [], newsml: { pubStatus: 'stat:withheld' } }).embargoUntil).toMatchObject({
      at: null,
      rule: 'newsml:stat:withheld',
    });
    expect(readRelease({ texts: [], newsml: { pubStatus: 'stat:usable' } }).embargoUntil).toBeNull();
  });

  it('reads NITF date.release, date.expire and management-status (the shared nitf-fishing.xml values)', () => {
    const r = readRelease({
      texts: [],
      nitf: { dateRelease: '20020226T093000-0500', dateExpire: '20120226T093000-0500', managementStatus: 'canceled' },
    });
    expect(r.embargoUntil!.at).toBe('2002-02-26T14:30:00.000Z');
    expect(r.expires!.at).toBe('2012-02-26T14:30:00.000Z');
    expect(readRelease({ texts: [], nitf: { managementStatus: 'embargoed' } }).embargoUntil!.at).toBeNull();
    expect(readRelease({ texts: [], nitf: { managementStatus: 'usable' } }).embargoUntil).toBeNull();
  });
});

describe('releaseState', () => {
  const r = readRelease({
    texts: [],
    iptc: {
      releaseDate: '20240310',
      releaseTime: '000100+0000',
      expirationDate: '20240410',
      expirationTime: '000000+0000',
    },
  });

  it('is embargoed with the time left, then available, then expired, with nothing re-read', () => {
    expect(releaseState(r, '2024-03-09T23:00:00Z')).toEqual({
      state: 'embargoed',
      until: '2024-03-10T00:01:00.000Z',
      msLeft: 61 * 60_000,
    });
    expect(releaseState(r, Date.parse('2024-03-10T00:01:00Z'))).toEqual({
      state: 'available',
      expires: '2024-04-10T00:00:00.000Z',
      msLeft: 31 * 86_400_000 - 60_000,
    });
    expect(releaseState(r, new Date('2024-04-10T00:00:00Z'))).toEqual({
      state: 'expired',
      since: '2024-04-10T00:00:00.000Z',
    });
    for (const now of ['2024-03-09T23:00:00Z', '2024-03-20T00:00:00Z', '2024-05-01T00:00:00Z'])
      expect(() => releaseStateSchema.parse(releaseState(r, now))).not.toThrow();
  });

  it('is embargoed with no end when held until further notice, and available when nothing is said', () => {
    expect(releaseState(embargo('HOLD FOR RELEASE'), '2099-01-01T00:00:00Z')).toEqual({
      state: 'embargoed',
      until: null,
      msLeft: null,
    });
    expect(releaseState(embargo('NO SALES'), '2024-03-05T12:00:00Z')).toEqual({
      state: 'available',
      expires: null,
      msLeft: null,
    });
  });
});
