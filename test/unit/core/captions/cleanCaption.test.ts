import { cleanCaption } from '../../../../src/core/captions/cleanCaption';
import { loadCreditRules } from '../../../../src/core/credits/rules';

const kinds = (raw: string, opts?: { title?: string }) => cleanCaption(raw, opts).removed.map((r) => r.kind);

describe('cleanCaption', () => {
  it('removes a slideshow counter and the truncated title line before it', () => {
    const raw =
      'A supporter of Wikileaks founder Julian (12 of41)\nA supporter of Wikileaks founder Julian Assange stands outside. (AP Photo/Tim Hales)';
    const cleaned = cleanCaption(raw);
    expect(cleaned.caption).toBe('A supporter of Wikileaks founder Julian Assange stands outside.');
    expect(cleaned.removed).toEqual([
      { kind: 'title', text: 'A supporter of Wikileaks founder Julian' },
      { kind: 'counter', text: '(12 of41)' },
      { kind: 'credit-tail', text: '(AP Photo/Tim Hales)' },
    ]);
  });

  it('removes a counter that ends the caption without taking the caption for a title', () => {
    const cleaned = cleanCaption('Police officers outside the embassy. (AP Photo/Tim Hales) (3 of 12)');
    expect(cleaned.caption).toBe('Police officers outside the embassy.');
    expect(cleaned.removed.map((r) => r.kind)).toEqual(['credit-tail', 'counter']);
  });

  it('removes the feed title when the caption repeats it on its own first line, and only then', () => {
    const withLine = cleanCaption('Julian Assange\nAssange speaks to the media in London.', {
      title: 'Julian Assange (01 of41)',
    });
    expect(withLine.caption).toBe('Assange speaks to the media in London.');
    expect(withLine.removed).toEqual([{ kind: 'title', text: 'Julian Assange' }]);
    // A truncated title is the start of the caption itself: nothing is removed.
    const truncated = cleanCaption('A supporter of Wikileaks founder Julian Assange stands outside.', {
      title: 'A supporter of Wikileaks founder Julian',
    });
    expect(truncated.caption).toBe('A supporter of Wikileaks founder Julian Assange stands outside.');
    expect(truncated.removed).toEqual([]);
  });

  it('removes Reuters tags and editors notes', () => {
    const cleaned = cleanCaption(
      'People walk along the beach in Santa Monica, California, U.S., July 4, 2023. REUTERS/Lucy Nicholson TPX IMAGES OF THE DAY (UNITED STATES - Tags: SOCIETY)',
    );
    expect(cleaned.caption).toBe('People walk along the beach in Santa Monica, California, U.S., July 4, 2023.');
    expect(cleaned.removed).toEqual([
      { kind: 'credit-tail', text: 'REUTERS/Lucy Nicholson' },
      { kind: 'editor-note', text: 'TPX IMAGES OF THE DAY' },
      { kind: 'tags', text: '(UNITED STATES - Tags: SOCIETY)' },
    ]);
    expect(cleaned.creditTail).toBe('REUTERS/Lucy Nicholson TPX IMAGES OF THE DAY (UNITED STATES - Tags: SOCIETY)');
    expect(kinds('Smoke rises over the city of Aleppo, Syria, July 3, 2014. TEMPLATE OUT REUTERS/Stringer')).toEqual([
      'editor-note',
      'credit-tail',
    ]);
    const third = cleanCaption(
      'A view shows damaged buildings in Bakhmut, Ukraine. Ukrainian Presidential Press Service/Handout via REUTERS ATTENTION EDITORS - THIS IMAGE HAS BEEN SUPPLIED BY A THIRD PARTY.',
    );
    expect(third.caption).toBe('A view shows damaged buildings in Bakhmut, Ukraine.');
    expect(third.removed.map((r) => r.kind)).toEqual(['credit-tail', 'editor-note']);
  });

  it('removes file markers and leaves a readable sentence', () => {
    expect(
      cleanCaption('(FILES) In a file photo taken on February 27, 2012, Julian Assange talks. AFP PHOTO / CARL COURT')
        .caption,
    ).toBe('In a file photo taken on February 27, 2012, Julian Assange talks.');
    expect(
      cleanCaption(
        "FILE PHOTO: Britain's Prime Minister speaks in London, July 6, 2022. REUTERS/Henry Nicholls/File Photo",
      ).caption,
    ).toBe("Britain's Prime Minister speaks in London, July 6, 2022.");
    expect(
      cleanCaption('FILE - In this Sept. 5, 2019, file photo, the president speaks. (AP Photo/Evan Vucci, File)')
        .caption,
    ).toBe('In this Sept. 5, 2019, file photo, the president speaks.');
    const pa = cleanCaption(
      "File photo dated 24-06-2014 of England's Moeen Ali. PRESS ASSOCIATION Photo. Issue date: Thursday April 2, 2015. Moeen Ali is planning to join England. See PA story CRICKET England Moeen. Photo credit should read Martin Rickett/PA Wire.",
    );
    expect(pa.caption).toBe("England's Moeen Ali. Moeen Ali is planning to join England.");
    expect(pa.removed).toEqual([
      { kind: 'file-marker', text: 'File photo dated 24-06-2014 of' },
      { kind: 'file-marker', text: 'PRESS ASSOCIATION Photo. Issue date: Thursday April 2, 2015.' },
      { kind: 'story-ref', text: 'See PA story CRICKET England Moeen.' },
      { kind: 'credit-tail', text: 'Photo credit should read Martin Rickett/PA Wire.' },
    ]);
    // The photo's date, not the date PA sent it again.
    expect(pa.dateCreated).toBe('2014-06-24');
    expect(cleanCaption('File photo dated 3/4/2019 of the Supreme Court. Photo credit: Yui Mok/PA').caption).toBe(
      'The Supreme Court.',
    );
  });

  it('removes PA restrictions that follow the credit', () => {
    const cleaned = cleanCaption(
      "England's Moeen Ali plays at Headingley, Leeds. PRESS ASSOCIATION Photo. Picture date: Tuesday June 24, 2014. See PA Story CRICKET England. Photo credit should read: Martin Rickett/PA Wire. Editorial use only. RESTRICTIONS: Use subject to restrictions. No commercial use. Call 44 (0)1158 447447 for further information.",
    );
    expect(cleaned.caption).toBe("England's Moeen Ali plays at Headingley, Leeds.");
    expect(cleaned.creditTail).toBe('Photo credit should read: Martin Rickett/PA Wire.');
    expect(cleaned.removed.map((r) => r.kind)).toEqual(['file-marker', 'story-ref', 'credit-tail', 'restrictions']);
    expect(cleaned.dateCreated).toBe('2014-06-24');
  });

  it('leaves the date and dateline unread when asked (the cluster index wants only the text), and the rest the same', () => {
    const caption =
      'LONDON, ENGLAND - AUGUST 16: A supporter of Julian Assange stands outside the Ecuadorian embassy on August 16, 2012 in London, England. (Photo by Oli Scarff/Getty Images)';
    const full = cleanCaption(caption);
    expect(full.dateCreated).toBe('2012-08-16');
    expect(full.dateline).not.toBeNull();
    expect(cleanCaption(caption, { dates: false })).toEqual({ ...full, dateCreated: null, dateline: null });
  });

  it('straightens quotes and collapses spaces, and changes nothing else', () => {
    const cleaned = cleanCaption(
      '“It is important,” he said\u00a0at the  Ecuador’s\tembassy\n in London.   (AP Photo/Lefteris Pitarakis)',
    );
    expect(cleaned.caption).toBe('"It is important," he said at the Ecuador\'s embassy in London.');
    // Removed parts are kept as received.
    expect(cleaned.removed).toEqual([{ kind: 'credit-tail', text: '(AP Photo/Lefteris Pitarakis)' }]);
    const untouched =
      'Wikileaks founder Julian Assange (C) leaves the Supreme Court (2nd R) in London on Feb. 1, 2012 -- a day early.';
    expect(cleanCaption(untouched)).toEqual({
      caption: untouched,
      removed: [],
      creditTail: null,
      dateCreated: '2012-02-01',
      dateline: null,
    });
  });

  it('finds credits without a label: agency-first, name-first, bracketed', () => {
    const tail = (raw: string) => cleanCaption(raw).creditTail;
    expect(
      tail(
        'The Montreal Police logo is seen on a police car in Montreal on Wednesday, July 8, 2020. THE CANADIAN PRESS/Paul Chiasson',
      ),
    ).toBe('THE CANADIAN PRESS/Paul Chiasson');
    expect(tail('Fans cheer at the stadium in Madrid on 12 May 2023. Michael Loccisano/Getty Images for CNN')).toBe(
      'Michael Loccisano/Getty Images for CNN',
    );
    expect(tail('Kyiv at night, Ukraine, 3 March 2023. EPA-EFE/ROMAN PILIPEY')).toBe('EPA-EFE/ROMAN PILIPEY');
    expect(
      tail('Growers inspect tulip bulbs near Lisse, 30 October 2026. EPA-EFE/KOEN VAN DER BERG NETHERLANDS OUT'),
    ).toBe('EPA-EFE/KOEN VAN DER BERG NETHERLANDS OUT');
    expect(tail('A Belgian flag flies in Brussels. BELGA PHOTO NICOLAS MAETERLINCK')).toBe(
      'BELGA PHOTO NICOLAS MAETERLINCK',
    );
    expect(tail('The president waves. (AP Photo)')).toBe('(AP Photo)');
    expect(
      tail(
        "Austria's Matthias Mayer in Kitzbuehel, Austria, on January 22, 2015.       AFP PHOTO / CHRISTOF STACHECHRISTOF STACHE/AFP/Getty Images",
      ),
    ).toBe('AFP PHOTO / CHRISTOF STACHECHRISTOF STACHE/AFP/Getty Images');
    expect(
      tail('Cast members arrive, 29 Oct 2026. Mandatory Credit: Photo by Ravi Menon/Shutterstock (16512345a)'),
    ).toBe('Mandatory Credit: Photo by Ravi Menon/Shutterstock (16512345a)');
  });

  it('does not take caption text for a credit', () => {
    for (const raw of [
      'Police stand guard outside the court in London. The trial continues. Jane Doe',
      'The 24/7 news cycle, seen from the newsroom of the BBC.',
      'Julian Assange (C) and Vaughan Smith (R) leave. Assange said the case was political.',
      'A still from the CNN/ORC poll broadcast shows the results.',
    ]) {
      const cleaned = cleanCaption(raw);
      expect(cleaned.creditTail).toBeNull();
      expect(cleaned.caption).toBe(raw);
    }
  });

  it("removes EPA's picture number in front and Reuters' market restrictions before the credit", () => {
    const epa = cleanCaption(
      'epa03282543 A masked supporter of Julian Assange stands outside the Ecuadorian embassy in London, Britain, 22 June 2012. EPA/ANDY RAIN',
    );
    expect(epa.caption).toBe(
      'A masked supporter of Julian Assange stands outside the Ecuadorian embassy in London, Britain, 22 June 2012.',
    );
    expect(epa.removed).toContainEqual({ kind: 'agency-id', text: 'epa03282543' });
    const markets = cleanCaption(
      'Fans celebrate in Lisbon, Portugal, May 2, 2023. NO USE FRANCE. NO USE SWITZERLAND. REUTERS/Pedro Nunes',
    );
    expect(markets.caption).toBe('Fans celebrate in Lisbon, Portugal, May 2, 2023.');
    expect(markets.creditTail).toBe('REUTERS/Pedro Nunes');
    expect(markets.removed.filter((r) => r.kind === 'restrictions').map((r) => r.text)).toEqual([
      'NO USE FRANCE.',
      'NO USE SWITZERLAND.',
    ]);
    // PA Media's house line is a note, not caption text (and not a file marker); its date is still read.
    const pa = cleanCaption(
      'Commuters queue at Waterloo station in London. PA Photo. Picture date: Tuesday May 2, 2023. Photo credit should read: Jonathan Brady/PA Wire',
    );
    expect(pa.caption).toBe('Commuters queue at Waterloo station in London.');
    expect(pa.removed).toContainEqual({ kind: 'editor-note', text: 'PA Photo. Picture date: Tuesday May 2, 2023.' });
    expect(pa.dateCreated).toBe('2023-05-02');
    // Prose that says so in lower case stays.
    expect(cleanCaption('A sign reads no use of drones. REUTERS/Pedro Nunes').caption).toBe(
      'A sign reads no use of drones.',
    );
  });

  it('keeps a caption sent in capitals and finds its credit after it', () => {
    // Before 2026-12-03 both came out empty: with no lower-case prose word, the whole text was read as the credit.
    const pa = cleanCaption(
      'A MASKED SUPPORTER OF JULIAN ASSANGE STANDS OUTSIDE THE ECUADORIAN EMBASSY IN LONDON. Photo credit: Dominic Lipinski/PA',
    );
    expect(pa.caption).toBe('A MASKED SUPPORTER OF JULIAN ASSANGE STANDS OUTSIDE THE ECUADORIAN EMBASSY IN LONDON.');
    expect(pa.creditTail).toBe('Photo credit: Dominic Lipinski/PA');
    const ap = cleanCaption(
      'FILE PHOTO: POLICE OFFICERS STAND GUARD OUTSIDE THE EMBASSY IN LONDON. (AP Photo/Tim Hales)',
    );
    expect(ap.caption).toBe('POLICE OFFICERS STAND GUARD OUTSIDE THE EMBASSY IN LONDON.');
    expect(ap.creditTail).toBe('(AP Photo/Tim Hales)');
    // A credit in capitals with a sentence of its own is still a credit.
    expect(cleanCaption('Police stand guard in London. NAVY PHOTO BY PETTY OFFICER JOHN SMITH. NO SALES').caption).toBe(
      'Police stand guard in London.',
    );
  });

  it("reads dates in the wires' formats", () => {
    const date = (raw: string) => cleanCaption(raw).dateCreated;
    expect(
      date(
        'Bush drops his dog, Barney, Saturday, Aug. 30, 2003, at TSTC Airfield in Waco, Texas. (AP Photo/Duane A. Laverty)',
      ),
    ).toBe('2003-08-30');
    expect(date('Growers near Lisse, the Netherlands, 30 October 2026.')).toBe('2026-10-30');
    expect(date('Supporters outside the court on May 30, 2012 ahead of the verdict.')).toBe('2012-05-30');
    expect(date('Taken on 2024-03-01 in Oslo.')).toBe('2024-03-01');
    expect(date('A US-style date 12/25/2019 with the month first.')).toBe('2019-12-25');
    expect(date('Bombs fell. PICTURE TAKEN JULY 1, 2014. Aleppo was quiet on July 3, 2014. REUTERS/Stringer')).toBe(
      '2014-07-01',
    );
    expect(date('Not a date: February 30, 2012 or 2012 alone.')).toBeNull();
    expect(date('A fire on Sept. 1 in the hills.')).toBeNull();
  });

  it('reads datelines, taking a missing year from another date of the caption or leaving the date unknown', () => {
    expect(
      cleanCaption('HOLLYWOOD, CA - JULY 21: Vin Diesel arrives on July 21, 2014 in Hollywood, California.'),
    ).toMatchObject({
      dateCreated: '2014-07-21',
      dateline: { text: 'HOLLYWOOD, CA - JULY 21', city: 'Hollywood', state: 'CA', country: null },
    });
    expect(
      cleanCaption('NEW YORK, NY, USA - MAY 01: Guests attend the gala. The gala began in 2019 on March 3, 2019.'),
    ).toMatchObject({
      dateCreated: '2019-05-01',
      dateline: { city: 'New York', state: 'NY', country: 'USA' },
    });
    expect(cleanCaption('LONDON - AUGUST 20: Petr Cech in action at Wembley Stadium.')).toMatchObject({
      dateCreated: null,
      dateline: { text: 'LONDON - AUGUST 20', city: 'London', state: null, country: null },
    });
    expect(
      cleanCaption(
        '01 Apr 2015, Akron, Ohio, USA --- April 1, 2015 - Akron, Ohio, U.S. - Former Navy SEAL CHRISTOPHER HEBEN gestures. (Credit Image: © Mike Cardew/TNS/ZUMA Wire) --- Image by © Mike Cardew/ZUMA Press/Corbis',
      ),
    ).toMatchObject({
      caption:
        '01 Apr 2015, Akron, Ohio, USA --- April 1, 2015 - Akron, Ohio, U.S. - Former Navy SEAL CHRISTOPHER HEBEN gestures.',
      creditTail: '(Credit Image: © Mike Cardew/TNS/ZUMA Wire) --- Image by © Mike Cardew/ZUMA Press/Corbis',
      dateCreated: '2015-04-01',
      dateline: { text: '01 Apr 2015, Akron, Ohio, USA', city: 'Akron', state: 'Ohio', country: 'USA' },
    });
  });

  it('finds a credit that starts with an agency an operator added', () => {
    // Reuters sport style: no full stop before the credit, so only the agency name can start it.
    const raw = 'Fans celebrate after the match MUGWUM/Julie Doe';
    expect(cleanCaption(raw).creditTail).toBeNull();
    const rules = loadCreditRules();
    const withMugwum = { ...rules, agencies: { ...rules.agencies, MUGWUM: { name: 'Mugwum', aliases: ['MUGWUM'] } } };
    expect(cleanCaption(raw, { rules: withMugwum })).toMatchObject({
      caption: 'Fans celebrate after the match',
      creditTail: 'MUGWUM/Julie Doe',
    });
  });

  it('handles an empty caption', () => {
    expect(cleanCaption('')).toEqual({ caption: '', removed: [], creditTail: null, dateCreated: null, dateline: null });
    expect(cleanCaption('   \n ')).toEqual({
      caption: '',
      removed: [],
      creditTail: null,
      dateCreated: null,
      dateline: null,
    });
  });
});
