import { readNotice } from '../../../../src/core/kills/readNotice';
import { noticeSchema } from '../../../../src/schemas/notice';
import type { RightsSource } from '../../../../src/schemas/rights';

/**
 * Kill, withdrawal and correction notices in the styles of AP, Reuters, AFP, Getty, EPA, PA, dpa
 * and The Canadian Press, and the ordinary news prose that must never be read as one.
 */

const notice = (
  text: string,
  source: RightsSource = 'iptc:specialInstructions',
  ids: { transmissionReference?: string; agencyId?: string } = {},
) => readNotice({ texts: [{ source, text }], ids });

type Row = [
  style: string,
  source: RightsSource,
  text: string,
  kind: 'kill' | 'withdraw' | 'correction',
  targets: string[],
];

const NOTICES: Row[] = [
  [
    'AP mandatory kill quoting the transmission reference',
    'iptc:specialInstructions',
    'MANDATORY KILL: AP has retracted this image because at closer inspection it appears that the source has manipulated the image. The photo (transmission reference LON805) of Kate, Princess of Wales, and her children should be removed. Please remove it from all platforms, including social, where it may still be visible.',
    'kill',
    ['LON805'],
  ],
  [
    'AP eliminate with a list of ids',
    'iptc:specialInstructions',
    'ELIMINATE: NYPS101, NYPS102 AND NYPS103. The photos were transmitted in error.',
    'kill',
    ['NYPS101', 'NYPS102', 'NYPS103'],
  ],
  [
    'AP kill advisory in a caption',
    'caption',
    'KILL KILL KILL - PICTURE KILLED - Reuters has withdrawn this picture (RC2L86AM4ZIA). Please delete it from your systems.',
    'kill',
    ['RC2L86AM4ZIA'],
  ],
  [
    'AP kill as the caption of a resent photo',
    'caption',
    'PHOTO KILLED - The Associated Press has killed this photo. Please remove it from all your systems.',
    'kill',
    ['SELF01'],
  ],
  [
    'AFP elimination',
    'newsml:edNote',
    'ELIMINATION: AFP has withdrawn this photo due to an editorial issue. It should no longer be used in any manner. Please immediately remove it from all your online services and delete it from your servers.',
    'kill',
    ['SELF01'],
  ],
  [
    'Getty',
    'iptc:specialInstructions',
    'MANDATORY KILL - Image ID 2065273843. Please delete this image from all systems. Getty Images has been made aware of an editorial issue.',
    'kill',
    ['2065273843'],
  ],
  [
    'EPA',
    'iptc:specialInstructions',
    'EPA KILL NOTICE: epa11213344 has been killed. Please delete from your systems.',
    'kill',
    ['epa11213344'],
  ],
  [
    'PA',
    'caption:notes',
    'PICTURE KILL: PA Media is killing the image from its picture service. Please delete the picture slugged ROYAL_Mothers_Day_119 from your systems.',
    'kill',
    ['ROYAL_Mothers_Day_119'],
  ],
  [
    'Reuters (NewsML guid quoted)',
    'newsml:edNote',
    'KILL - This picture has been killed. Please delete tag:reuters.com,2024:newsml_LYNXMPEA6F0MS from your archives.',
    'kill',
    ['tag:reuters.com,2024:newsml_LYNXMPEA6F0MS'],
  ],
  [
    'dpa (German)',
    'iptc:specialInstructions',
    'ACHTUNG: BITTE LÖSCHEN - Das Bild urn:newsml:dpa.com:20090101:171117-90-000086 darf nicht mehr verwendet werden.',
    'kill',
    ['urn:newsml:dpa.com:20090101:171117-90-000086'],
  ],
  [
    'CP',
    'iptc:specialInstructions',
    'ADVISORY: CPT101 WITHDRAWN. Please do not use this photo.',
    'withdraw',
    ['CPT101'],
  ],
  ['withdrawal phrase', 'newsml:edNote', 'This image has been withdrawn. Do not use.', 'withdraw', ['SELF01']],
  ['withdrawal heading', 'iptc:specialInstructions', 'PHOTO WITHDRAWN. Please do not use.', 'withdraw', ['SELF01']],
  [
    'AP correction',
    'iptc:specialInstructions',
    'CORRECTS SPELLING OF NAME TO JOHN SMITH INSTEAD OF JON SMITH',
    'correction',
    ['SELF01'],
  ],
  [
    'Reuters refile',
    'caption',
    'REFILE - CORRECTING SPELLING OF SURNAME Protesters march in Paris, France, March 8, 2024. REUTERS/Gonzalo Fuentes',
    'correction',
    ['SELF01'],
  ],
  [
    'EPA correction',
    'iptc:specialInstructions',
    'CORRECTION: corrected caption of epa11213344, the date was wrong',
    'correction',
    ['epa11213344'],
  ],
  [
    'AFP correction',
    'newsml:edNote',
    'The erroneous mention appearing in the metadata of this photo by Ludovic Marin has been modified in AFP systems in the following manner: [Paris] instead of [Lyon].',
    'correction',
    ['SELF01'],
  ],
];

describe('readNotice on agency-style notices', () => {
  it.each(NOTICES)('%s', (_style, source, text, kind, targets) => {
    const n = notice(text, source, { transmissionReference: 'SELF01' });
    expect(n).not.toBeNull();
    expect(n!.kind).toBe(kind);
    expect(n!.targets).toEqual(targets);
    expect(n!.selfTargeted).toBe(targets.includes('SELF01'));
    expect(n!.source).toBe(source);
    expect(n!.confidence).toBe('high');
    expect(() => noticeSchema.parse(n)).not.toThrow();
  });

  it('gives the reason as the agency wrote it, after the heading', () => {
    const n = notice(
      'MANDATORY KILL: At closer inspection, it appears that the source has manipulated the image. Please remove it from all platforms.',
    );
    expect(n!.reason).toBe(
      'At closer inspection, it appears that the source has manipulated the image. Please remove it from all platforms.',
    );
    expect(n!.rule).toBe('text:heading:MANDATORY KILL|KILLS');
    expect(notice('KILL KILL KILL - PICTURE KILLED - transmitted in error')!.reason).toBe('transmitted in error');
  });

  it('has low confidence when no target can be named', () => {
    const n = notice('MANDATORY KILL: please delete the picture of the mayor sent this morning.');
    expect(n).toMatchObject({ kind: 'kill', targets: [], confidence: 'low', selfTargeted: false });
  });
});

/**
 * The same notices as other agencies and desks word them (issue 16 audit): the killed photo's id
 * after "NOTICE" or after the agency's name, the id between "the photo" and "has been eliminated",
 * "RETRACTED"/"RECALLED" headings, Getty's "IMAGE REMOVED", French and Italian requests to delete.
 * Each named the wrong targets (the notice's own item) or was not read at all before.
 */
const MORE_NOTICES: Row[] = [
  [
    'EPA-EFE: the id after "KILL NOTICE"',
    'iptc:specialInstructions',
    'EPA-EFE MANDATORY KILL NOTICE: epa11213344 has been killed by the photographer. Please delete it from your systems.',
    'kill',
    ['epa11213344'],
  ],
  [
    'PA: the number after the agency name',
    'iptc:specialInstructions',
    'WITHDRAWAL: PA 78910112. This picture must not be used.',
    'withdraw',
    ['78910112'],
  ],
  [
    'AP: the id between "the photo" and "has been eliminated"',
    'iptc:specialInstructions',
    'AP: The photo NYPS101 has been eliminated. It was transmitted in error.',
    'kill',
    ['NYPS101'],
  ],
  [
    'AP: "PHOTO RETRACTED" heading',
    'iptc:specialInstructions',
    'PHOTO RETRACTED: NYPS101. The source manipulated the image.',
    'kill',
    ['NYPS101'],
  ],
  ['Reuters: "PICTURE RECALLED" heading', 'newsml:edNote', 'PICTURE RECALLED: RC2L86AM4ZIA', 'kill', ['RC2L86AM4ZIA']],
  [
    'Getty: "IMAGE REMOVED"',
    'iptc:specialInstructions',
    'IMAGE REMOVED: Image 2065273843 has been removed at the request of the copyright holder.',
    'withdraw',
    ['2065273843'],
  ],
  [
    'Getty: "has been removed" with the id quoted',
    'newsml:edNote',
    'Getty Images advisory: the image 2065273843 has been removed from distribution.',
    'withdraw',
    ['2065273843'],
  ],
  [
    'AFP (French): "merci de supprimer"',
    'newsml:edNote',
    'AFP - MERCI DE SUPPRIMER LA PHOTO 34XK2LA DE VOS SYSTEMES',
    'kill',
    ['34XK2LA'],
  ],
  [
    'AFP (French): "veuillez supprimer"',
    'iptc:specialInstructions',
    'Veuillez supprimer la photo 34XK2LA de tous vos systèmes.',
    'kill',
    ['34XK2LA'],
  ],
  [
    'ANSA (Italian): "FOTO ANNULLATA"',
    'iptc:specialInstructions',
    'ANSA - FOTO ANNULLATA: ANSA123456. Si prega di eliminarla dai vostri sistemi.',
    'kill',
    ['ANSA123456'],
  ],
];

describe("readNotice on other agencies' wording", () => {
  it.each(MORE_NOTICES)('%s', (_style, source, text, kind, targets) => {
    const n = notice(text, source, { transmissionReference: 'SELF01' });
    expect(n).not.toBeNull();
    expect(n!.kind).toBe(kind);
    expect(n!.targets).toEqual(targets);
    expect(n!.selfTargeted).toBe(false);
    expect(n!.confidence).toBe('high');
  });

  it('still reads no notice in prose that says removed, retracted or recalled', () => {
    for (const text of [
      'Rescue workers removed the debris after the building collapsed.',
      'The minister retracted his statement on Tuesday.',
      'Toyota recalled 50,000 cars in March.',
      'The photo was removed from the exhibition by the museum.',
    ]) {
      expect(notice(text, 'caption')).toBeNull();
    }
  });
});

describe('status fields', () => {
  it('reads a Reuters-style NewsML-G2 cancellation of a guid as a kill of that guid', () => {
    const guid = 'tag:reuters.com,2024:newsml_LYNXMPEA6F0MS';
    const n = readNotice({
      texts: [{ source: 'newsml:edNote', text: 'This picture has been killed due to an editorial issue.' }],
      newsml: { guid, version: '3', pubStatus: 'stat:canceled' },
    });
    expect(n).toMatchObject({
      kind: 'kill',
      targets: [guid],
      selfTargeted: true,
      source: 'newsml:pubStatus',
      rule: 'newsml:stat:canceled',
      confidence: 'high',
    });
    expect(n!.reason).toBe('This picture has been killed due to an editorial issue.');
  });

  it('reads stat:withheld as a withdrawal and sig:correction as a correction of the same guid', () => {
    expect(readNotice({ texts: [], newsml: { guid: 'urn:x:1', pubStatus: 'stat:withheld' } })).toMatchObject({
      kind: 'withdraw',
      targets: ['urn:x:1'],
    });
    expect(
      readNotice({
        texts: [],
        newsml: { guid: 'urn:x:1', version: '2', pubStatus: 'stat:usable', signals: ['sig:correction'] },
      }),
    ).toMatchObject({
      kind: 'correction',
      targets: ['urn:x:1'],
      rule: 'newsml:sig:correction',
    });
    expect(
      readNotice({
        texts: [],
        newsml: { guid: 'urn:x:1', pubStatus: 'stat:usable', signals: ['sig:update', 'edStat:N', 'prodId:PIX'] },
      }),
    ).toBeNull();
  });

  it('reads NITF management-status of the document and of the one it names (the shared nitf-fishing.xml)', () => {
    const n = readNotice({
      texts: [{ source: 'nitf:ed-msg', text: 'Today begins an expanded format of this popular column.' }],
      nitf: {
        docId: 'iptc.321656141.b',
        managementStatus: 'canceled',
        managementDocIdref: 'iptc.321656141.a',
        managementIdrefStatus: 'canceled',
      },
    });
    expect(n).toMatchObject({
      kind: 'kill',
      targets: ['iptc.321656141.b', 'iptc.321656141.a'],
      source: 'nitf:management-status',
    });
    expect(readNotice({ texts: [], nitf: { docId: 'd1', managementStatus: 'usable' } })).toBeNull();
    expect(readNotice({ texts: [], nitf: { docId: 'd1', managementStatus: 'withheld' } })).toMatchObject({
      kind: 'withdraw',
      targets: ['d1'],
    });
  });

  it('ranks a kill above a withdrawal above a correction', () => {
    const n = readNotice({
      texts: [
        {
          source: 'iptc:specialInstructions',
          text: 'CORRECTS DATE. PICTURE KILLED: delete NYPS101 from your systems.',
        },
      ],
      newsml: { guid: 'urn:x:9', signals: ['sig:correction'] },
    });
    expect(n).toMatchObject({ kind: 'kill', targets: ['NYPS101'] });
  });
});

describe('never a notice: ordinary news prose', () => {
  const captions = [
    'Police say three people were killed and 12 wounded when a gunman opened fire at a school in Uvalde, Texas.',
    'AP, Reuters, AFP and Getty issued a mandatory kill notice for the photo released by Kensington Palace.',
    'Agencies killed the image of the Princess of Wales after questions over manipulation, a photo editor said.',
    'Israeli soldiers killed two Palestinians in Jenin, the Palestinian health ministry said.',
    'The bodies of people killed in an airstrike are seen at a hospital in Khan Younis, March 9, 2024.',
    'KILLED IN ACTION: Sgt. John Doe, 24, is seen in an undated family photo.',
    'Kill Bill star Uma Thurman arrives at the premiere in Los Angeles.',
    'Killing Eve actress Jodie Comer poses at the BAFTA awards in London.',
    'Mourners gather for the funeral of the photographer who was killed in Gaza.',
    'A picture of the victim, who was killed on Monday, is displayed during a vigil.',
    'Corrections officers stand guard at the Department of Corrections in Albany.',
    'Troops were withdrawn from the border town on Tuesday, the ministry said.',
    'Bank customers withdraw cash from an ATM in Athens.',
    'The candidate withdrew from the race after the debate.',
    'A man deletes photos from his phone at an exhibition about privacy.',
    'Protesters hold a sign that reads "Delete Facebook" outside the company headquarters.',
    'The politically correct answer, she said, was to stay silent.',
    'Workers eliminate weeds in a rice field in Bangladesh.',
    'Police said the suspect planned to kill the president.',
    'The photo shows the moment the building collapsed, killing 12 people.',
    'KILLER WHALE BREACHES OFF THE COAST OF NORWAY',
    'THREE KILLED IN HIGHWAY CRASH',
    'ELIMINATED: BRAZIL CRASH OUT OF THE WORLD CUP',
    'WITHDRAWAL OF U.S. TROOPS FROM AFGHANISTAN',
  ];
  it.each(captions)('%s', (text) => {
    expect(notice(text, 'caption')).toBeNull();
    expect(notice(text, 'iptc:headline')).toBeNull();
  });

  it('does not read a headline that is only "KILL" (a film title) as a kill', () => {
    expect(notice('KILL', 'iptc:headline')).toBeNull();
    expect(notice('KILL', 'iptc:specialInstructions')).toMatchObject({ kind: 'kill' });
  });

  it('does not read restrictions or embargoes as notices', () => {
    for (const text of [
      'EDITORIAL USE ONLY. NO RESALES. NO ARCHIVES',
      'EMBARGOED UNTIL 0001 GMT SATURDAY MARCH 9, 2024',
      'MUST NOT BE USED IN MAGAZINES',
      'NOT TO BE USED AFTER 31 MARCH 2024',
      'DO NOT USE AFTER 14 DAYS',
    ]) {
      expect({ text, n: notice(text) }).toEqual({ text, n: null });
    }
  });
});
