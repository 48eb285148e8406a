import type { IptcFields } from '../schemas/feedItem';

/**
 * The bundled sample: our own captions written in the styles of the wires (AP, AFP via Getty,
 * Reuters, PA, EPA, Shutterstock), with the near-duplicates a desk really sees: a boilerplate
 * caption resent under another credit, a resend with a story reference, a singular/plural edit.
 * People and events are invented.
 */
export interface SamplePhoto {
  file: string;
  width: number;
  height: number;
  /** Latin-1 IIM, as many older wire systems still send. */
  latin1?: boolean;
  iptc: IptcFields;
}

const FLOOD =
  'Commuters cross Westferry Bridge in heavy rain in Harbourton, Tuesday, Nov. 3, 2026. Forecasters warned of further flooding along the estuary after the wettest October on record.';

/** What the two AP flood frames share: the story's headline, credit, copyright, date and place. */
const FLOOD_STORY = {
  headline: 'Harbourton Weather',
  credit: 'AP',
  source: 'AP',
  copyright: 'Copyright 2026 The Associated Press. All rights reserved.',
  dateCreated: '2026-11-03',
  city: 'Harbourton',
  country: 'United Kingdom',
} satisfies IptcFields;

export const SAMPLE_PHOTOS: SamplePhoto[] = [
  {
    file: '01-flood-ap.jpg',
    width: 2400,
    height: 1600,
    iptc: {
      ...FLOOD_STORY,
      caption: `${FLOOD} (AP Photo/Mara Lindqvist)`,
      byline: ['MARA LINDQVIST'],
      bylineTitle: ['STF'],
      countryCode: 'GBR',
      transmissionReference: 'HBT101',
      keywords: ['weather', 'flooding', 'commuters'],
    },
  },
  {
    file: '02-flood-ap-resend.jpg',
    width: 2400,
    height: 1600,
    iptc: {
      ...FLOOD_STORY,
      caption: `${FLOOD} (AP Photo/Daniel Okafor)`,
      byline: ['DANIEL OKAFOR'],
      transmissionReference: 'HBT102',
    },
  },
  {
    file: '03-market-afp.jpg',
    width: 3000,
    height: 2000,
    latin1: true,
    iptc: {
      caption:
        'A stallholder arranges cèpes and girolles at the Saint-Aubin covered market in Valmont, eastern France, on November 2, 2026, as the autumn mushroom season peaks. AFP PHOTO / JEAN-PAUL ROUX (Photo credit should read JEAN-PAUL ROUX/AFP via Getty Images)',
      headline: 'FRANCE-AGRICULTURE-FOOD',
      byline: ['JEAN-PAUL ROUX'],
      credit: 'AFP via Getty Images',
      source: 'AFP',
      copyright: 'AFP',
      dateCreated: '2026-11-02',
      city: 'Valmont',
      country: 'France',
      transmissionReference: 'XYZ7Q2',
    },
  },
  {
    file: '04-final-reuters.jpg',
    width: 1800,
    height: 1200,
    iptc: {
      caption:
        'Soccer Football - Harbour Cup Final - Harbourton Athletic v Northfield Rovers - Quayside Stadium, Harbourton - November 1, 2026 Harbourton Athletic fans celebrate after the match REUTERS/Tomas Ferreira',
      headline: 'Harbour Cup Final',
      byline: ['TOMAS FERREIRA'],
      credit: 'REUTERS',
      source: 'X80012',
      copyright: 'REUTERS',
      dateCreated: '2026-11-01',
      city: 'Harbourton',
      country: 'United Kingdom',
    },
  },
  {
    file: '05-ferry-pa.jpg',
    width: 2000,
    height: 1333,
    iptc: {
      caption:
        "Passengers wait for the first ferry of the winter timetable at Kelmouth harbour. Picture date: Sunday November 1, 2026. See PA story TRANSPORT Ferries. Photo credit should read: Hannah O'Connell/PA Wire",
      headline: 'Winter ferries',
      byline: ["Hannah O'Connell"],
      credit: 'PA',
      source: 'PA',
      city: 'Kelmouth',
      country: 'United Kingdom',
    },
  },
  {
    file: '06-tulips-epa.jpg',
    width: 1600,
    height: 1600,
    iptc: {
      caption:
        'Growers inspect tulip bulbs before planting at a nursery near Lisse, the Netherlands, 30 October 2026. The bulb harvest was smaller than usual after a dry summer. EPA-EFE/KOEN VAN DER BERG NETHERLANDS OUT',
      headline: 'Bulb planting season in the Netherlands',
      byline: ['KOEN VAN DER BERG'],
      credit: 'EPA-EFE',
      source: 'EPA',
      dateCreated: '2026-10-30',
      city: 'Lisse',
      country: 'Netherlands',
    },
  },
  {
    file: '07-premiere-shutterstock.jpg',
    width: 1333,
    height: 2000,
    iptc: {
      caption:
        "Cast members arrive for the premiere of 'The Lantern Keepers' at the Regent Theatre, Harbourton, 29 Oct 2026. Mandatory Credit: Photo by Ravi Menon/Shutterstock (16512345a)",
      headline: "'The Lantern Keepers' premiere",
      byline: ['Ravi Menon/Shutterstock'],
      credit: 'Shutterstock',
      source: 'Shutterstock',
      dateCreated: '2026-10-29',
      city: 'Harbourton',
      country: 'United Kingdom',
    },
  },
];

/** Caption-only items and items pointing at the photos above, in a manifest. */
export const SAMPLE_MANIFEST = [
  {
    id: 'HBT103',
    caption: `${FLOOD.replace('Commuters cross', 'A commuter crosses')} (AP Photo/Mara Lindqvist)`,
    headline: 'Harbourton Weather',
    image: 'photos/01-flood-ap.jpg',
  },
  {
    id: 'HBT104',
    caption: `${FLOOD} See AP story WEATHER Harbourton. (AP Photo/Mara Lindqvist)`,
    headline: 'Harbourton Weather',
  },
  {
    id: 'XYZ7Q3',
    caption:
      'Shoppers queue at the Saint-Aubin covered market in Valmont, eastern France, on November 2, 2026. AFP PHOTO / JEAN-PAUL ROUX (Photo credit should read JEAN-PAUL ROUX/AFP via Getty Images)',
    headline: 'FRANCE-AGRICULTURE-FOOD',
  },
  {
    id: 'PA-3321',
    caption:
      "A volunteer lifeboat crew launches from Kelmouth slipway during a winter training exercise. Picture date: Saturday October 31, 2026. Photo credit should read: Hannah O'Connell/PA Wire",
    credit: 'PA',
  },
];

export const SAMPLE_GALLERY = `Harbourton braces for more rain
Residents along the estuary were told to prepare sandbags as forecasters warned of a third storm in a week.
The river authority said flood defences had held so far.
Harbourton storms
(01 of4)
${FLOOD} (AP Photo/Mara Lindqvist) (credit:AP)
(02 of4)
${FLOOD.replace('Commuters cross', 'A commuter crosses')} (AP Photo/Mara Lindqvist) (credit:AP)
Sandbags are stacked outside sh(03 of4)
Sandbags are stacked outside shops on Quay Street in Harbourton on November 3, 2026 as residents prepare for further flooding. (Photo by Ellis Carver/Getty Images) (credit:Getty)
Harbourton Weather(04 of4)
HARBOURTON, ENGLAND - NOVEMBER 03: A river authority worker checks a flood barrier on November 3, 2026 in Harbourton, England. (Photo by Ellis Carver/Getty Images) (credit:Getty)
`;
