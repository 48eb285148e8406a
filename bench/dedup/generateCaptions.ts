/**
 * Wire-style caption generator for the dedup bench: deterministic (seeded), fast enough to make
 * a million captions in a few seconds. A *story* is a background paragraph; several *families*
 * share one story with different subjects (like the seed's 01/08/10: same paragraph, different
 * photo), and each family has a base caption plus *variants* of the kinds the desk sees.
 */

export type VariantKind = 'base' | 'credit' | 'trailing' | 'number' | 'punctuation' | 'typo';

export interface GeneratedCaption {
  /** Family label: captions of one family are the same caption as far as the desk is concerned. */
  family: string;
  kind: VariantKind;
  /** The caption as the wire sends it, credit tail included. */
  raw: string;
}

/** mulberry32: tiny, fast, good enough for test data, and the same sequence on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const FIRST =
  'Julian Sarah John Maria Ahmed Li Olga Pedro Fatima Kenji Amara Lucas Ingrid Tomasz Aisha Diego Hannah Ravi Chloe Mateo Yusuf Elena Kwame Sofia Arjun Nadia Oliver Mei Samuel Leila Viktor Grace Hugo Zara Ibrahim Anna Carlos Emily Omar Lena Daniel Priya Felix Noor Marco Alice Jamal Ruth Stefan Yara Luis Isabel Tariq Helen Andre Maya Pavel Julia Kofi Eva'.split(
    ' ',
  );
export const LAST =
  'Assange Saunders Pilger Correa Hague Phillips Smith Garcia Okafor Tanaka Novak Rossi Silva Haddad Kowalski Jensen Murphy Nguyen Schmidt Dubois Moreau Costa Ivanova Mensah Khan Patel Larsen Petrov Romero Fischer Yilmaz Hoffmann Brennan Castillo Lindqvist Moretti Adeyemi Sato Kaminski Ortega Bauer Duarte Farouk Horvat Lambert Nakamura Quinn Reyes Suzuki Torres Varga Weber Zhou Abbott Barros Cohen Delgado Eriksen Ferreira'.split(
    ' ',
  );
export const ROLES =
  'WikiLeaks founder|Prime Minister|opposition leader|Foreign Secretary|tennis player|Chelsea striker|chief executive|singer|actor|President|Home Secretary|activist|lawyer|climate campaigner|Olympic champion|Mayor|union leader|former minister|novelist|film director|party leader|Health Secretary|defence lawyer|human rights lawyer|football manager|entrepreneur|journalist|ambassador|bishop|general secretary'.split(
    '|',
  );
export const SUBJECTS: Array<[string, string]> = [
  ['A supporter of {who}', 'Supporters of {who}'],
  ['A police officer', 'Police officers'],
  ['A protester', 'Protesters'],
  ['A member of the media', 'Members of the media'],
  ['A demonstrator', 'Demonstrators'],
  ['A fan of {who}', 'Fans of {who}'],
  ['A photographer', 'Photographers'],
  ['A firefighter', 'Firefighters'],
  ['A local resident', 'Local residents'],
  ['A soldier', 'Soldiers'],
  ['A student', 'Students'],
  ['A nurse', 'Nurses'],
  ['A rescue worker', 'Rescue workers'],
  ['A volunteer', 'Volunteers'],
  ['A tourist', 'Tourists'],
  ['A campaigner', 'Campaigners'],
  ['A security guard', 'Security guards'],
  ['A lawyer for {who}', 'Lawyers for {who}'],
  ['A relative of {who}', 'Relatives of {who}'],
  ['A commuter', 'Commuters'],
];
export const VERBS: Array<[string, string]> = [
  ['stands outside', 'stand outside'],
  ['gathers outside', 'gather outside'],
  ['waits outside', 'wait outside'],
  ['holds a placard outside', 'hold placards outside'],
  ['walks past', 'walk past'],
  ['arrives at', 'arrive at'],
  ['leaves', 'leave'],
  ['protests outside', 'protest outside'],
  ['speaks to the media outside', 'speak to the media outside'],
  ['sits outside', 'sit outside'],
  ['looks on outside', 'look on outside'],
  ['cheers outside', 'cheer outside'],
  ['queues outside', 'queue outside'],
  ['lays flowers outside', 'lay flowers outside'],
];
export const BUILDINGS =
  'the Embassy of Ecuador|the Ecuadorian Embassy|the High Court|the Supreme Court|the Houses of Parliament|City Hall|the Royal Courts of Justice|the Old Bailey|Downing Street|the Foreign Office|the central police station|the national stadium|the town hall|the cathedral|the main railway station|the European Parliament|the Ministry of Defence|the presidential palace|the county court|the magistrates court|the national museum|the university campus|the central hospital|the party headquarters|the trade union offices'.split(
    '|',
  );
export const CITIES =
  'London|Paris|Berlin|Madrid|Rome|Lisbon|Dublin|Brussels|Amsterdam|Vienna|Warsaw|Prague|Budapest|Athens|Stockholm|Oslo|Copenhagen|Helsinki|Quito|Lima|Bogota|Caracas|Santiago|Buenos Aires|Sao Paulo|Mexico City|Toronto|Chicago|Boston|Seattle|Sydney|Melbourne|Auckland|Tokyo|Seoul|Manila|Jakarta|Mumbai|Delhi|Karachi|Cairo|Nairobi|Lagos|Accra|Johannesburg|Cape Town|Istanbul|Ankara|Kyiv|Riga|Vilnius|Tallinn|Zagreb|Belgrade|Sofia|Bucharest|Geneva|Zurich|Munich|Hamburg'.split(
    '|',
  );
const AREAS = 'central|north|south|east|west|downtown|old town|northern|southern|eastern'.split('|');
export const DAYS = 'Monday Tuesday Wednesday Thursday Friday Saturday Sunday'.split(' ');
export const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);
export const COUNTRIES =
  'Sweden|Ecuador|the United States|Britain|France|Germany|Spain|Italy|Brazil|Mexico|Japan|India|Kenya|Nigeria|Australia|Canada|Poland|Ukraine|Turkey|Greece|Norway|Chile|Peru|Egypt|South Africa|Ireland|Portugal|Austria|Belgium|Denmark'.split(
    '|',
  );
// Story sentences: {a|b|c} picks one alternative; {P} the story's person, {ORG}/{PLACE}/{EVENT}
// story-specific invented names, so two stories share phrasing but rarely whole sentences, as
// on a real wire (a story's own captions share their background paragraph, handled by families).
export const STORY: string[] = [
  '{P} {faces|is facing|has been charged with} {crime} {charges |allegations |}in {C}, which {P2} {has denied|denies|rejects}.',
  'The {diplomatic|political|legal} row between {C} and {C2} over {P} {deepened|escalated|worsened} after {ORG} said it would {seek to extradite|try to deport|move against} {X}.',
  '{Authorities|Officials|Prosecutors} in {PLACE} have accused {ORG} of {threatening to enter|planning to raid|trying to close} the {building|embassy|offices} to {seize|detain|question} {P}.',
  '{P} was granted permission on {D} to {appeal|challenge the ruling|take the case} to {the highest court|the constitutional court|the appeals court} in {PLACE}.',
  'A majority of {N} to {M} {judges|jurors|members} ruled that {P} {can be extradited|must leave|may stay} {to |in }{C} over the {EVENT} {allegations|affair|case}.',
  '{Thousands|Hundreds|Dozens} of {people|supporters|students|workers} {marched|rallied|gathered} {through|in} {PLACE} on {D} to {demand|call for|protest against} the {release|arrest|trial} of {P}.',
  'The {R} told {reporters|journalists|the BBC|a news conference} that {a decision|the ruling|an announcement} on the {EVENT} {case|plan|request} would {be made|come|follow} within {N} {days|weeks|hours}.',
  '{P} {entered|arrived at|left} the {EVENT} {summit|hearing|talks} in {PLACE} on {D} {in an attempt to|hoping to|as part of a bid to} {gain asylum|secure a deal|avoid arrest}.',
  '{Police|Officers|A spokesman for {ORG}} said {N} people were {arrested|detained|injured} after {scuffles|clashes|fighting} broke out {near|outside|inside} the {EVENT} {venue|rally|meeting}.',
  'The {hearing|trial|inquiry} into the {EVENT} {affair|collapse|scandal}, which lasted {N} {hours|days|weeks}, was {adjourned|suspended|postponed} until {D}.',
  'In {a telephone interview|an interview|a statement} {from|in} {PLACE}, {P} said the {EVENT} case had been {politically motivated|mishandled|exaggerated}.',
  '{P} announced plans to {run for|stand for|seek} {election|office|a seat} in {PLACE}, {ORG} said on {D}.',
  'The {strike|walkout|protest} by {N},000 {workers|teachers|nurses|drivers} at {ORG} has {closed|disrupted|halted} {schools|hospitals|services} across {PLACE} for a {O} day.',
  '{Officials|Authorities|Rescuers} in {PLACE} said {N} people had been {killed|injured|evacuated} {in the floods|after the storm|in the fire|after the earthquake}.',
  'The {R} {resigned|stepped down|was dismissed} on {D} after {a report|an inquiry|an audit} {criticised|questioned|condemned} the handling of the {EVENT} {inquiry|contract|scandal}.',
  '{Ministers|Leaders|Envoys} from {N} countries {met|gathered|held talks} in {PLACE} to discuss the {EVENT} {crisis|dispute|agreement}.',
  '{P} {won|lost|reached} the {final|semi-final|title match} in {N} sets{, | }{claiming|missing|chasing} a {O} {EVENT} title.',
  '{ORG} said it would {cut|create|move} {N},000 jobs in {PLACE} as part of {a restructuring|an expansion|the {EVENT}} plan.',
  '{Rescue teams|Volunteers|Soldiers} worked {through the night|for hours|in heavy rain} to reach {survivors|families|residents} {trapped|stranded|cut off} in {PLACE}.',
  '{Campaigners|Critics|Lawyers} say the {EVENT} {law|bill|decree} {threatens|undermines|restricts} {press freedom|the right to protest|free speech} in {PLACE}.',
  'The {verdict|ruling|decision} is expected on {D}, and {P} has said {X} will {appeal|resign|respond} if {ORG} {rules|decides|acts} against {X}.',
  '{Supporters|Friends|Colleagues} have raised more than {N},000 {pounds|euros|dollars} {towards the bail of|for the defence of|to support} {P}.',
];
const CRIMES =
  'sexual assault|fraud|corruption|espionage|tax evasion|bribery|money laundering|contempt of court|perjury|sedition'.split(
    '|',
  );
const ORDINALS = 'second third fourth fifth sixth seventh eighth ninth tenth'.split(' ');
const TRAILING = [
  'Picture taken {D}.',
  'The photograph was released by the court on {D}.',
  '{P} denies all the allegations against {X}.',
  'More demonstrations are planned for the weekend.',
  'The embassy declined to comment on the case.',
];
const SYLLABLES =
  'ka lo ven dar mir tos bel an ri gu sha tem vol nor est ira ul ben co fal dor ish mar pel sol tri vin zan ob quel rod sen tur yal hem dru lis'.split(
    ' ',
  );
const ORG_KINDS =
  'Holdings|Group|Party|Union|Council|Foundation|Ministry|Bank|Alliance|Institute|Trust|Authority'.split('|');
const EVENT_KINDS =
  'energy|border|pension|mining|water|port|rail|housing|tax|data|arms|grain|fishing|climate|doping|media'.split('|');

function inventedName(r: () => number): string {
  const n = 2 + Math.floor(r() * 2);
  let w = '';
  for (let i = 0; i < n; i++) w += pick(r, SYLLABLES);
  return w[0].toUpperCase() + w.slice(1);
}

export interface StoryCast {
  who: string;
  org: string;
  place: string;
  event: string;
}

export function storyCast(r: () => number, who: string): StoryCast {
  return {
    who,
    org: `${inventedName(r)} ${pick(r, ORG_KINDS)}`,
    place: `${inventedName(r)}${r() < 0.5 ? '' : ` ${pick(r, ['province', 'district', 'county', 'region'])}`}`,
    event: `${inventedName(r)} ${pick(r, EVENT_KINDS)}`,
  };
}
const CREDITS = [
  (r: () => number) => `Photo credit: ${pick(r, FIRST)} ${pick(r, LAST)}/PA`,
  (r: () => number) => `(AP Photo/${pick(r, FIRST)} ${pick(r, LAST)}) (credit:AP)`,
  (r: () => number) =>
    `AFP PHOTO / ${pick(r, FIRST).toUpperCase()} ${pick(r, LAST).toUpperCase()} (Photo credit should read ${pick(r, LAST).toUpperCase()}/AFP/Getty Images) (credit:Getty)`,
  (r: () => number) => `(Photo by ${pick(r, FIRST)} ${pick(r, LAST)}/Getty Images) (credit:Getty)`,
];

export function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function person(r: () => number): string {
  return `${pick(r, FIRST)} ${pick(r, LAST)}`;
}

function date(r: () => number): string {
  return `${pick(r, DAYS)}, ${pick(r, MONTHS)} ${1 + Math.floor(r() * 28)}, ${2008 + Math.floor(r() * 17)}`;
}

export function fill(r: () => number, template: string, who: string, cast?: StoryCast): string {
  const x = r() < 0.5 ? 'him' : 'her';
  // The story's names first, so that alternatives such as "{a|b {ORG}}" hold no braces.
  const t = template
    .replace(/\{ORG\}/g, cast?.org ?? 'the government')
    .replace(/\{PLACE\}/g, () => cast?.place ?? pick(r, CITIES))
    .replace(/\{EVENT\}/g, cast?.event ?? 'latest')
    .replace(/\{([^{}]*\|[^{}]*)\}/g, (_m, alts: string) => pick(r, alts.split('|')));
  return t
    .replace(/\{P\}/g, who)
    .replace(/\{P2\}/g, x === 'him' ? 'he' : 'she')
    .replace(/\{X\}/g, x)
    .replace(/\{C\}/g, () => pick(r, COUNTRIES))
    .replace(/\{C2\}/g, () => pick(r, COUNTRIES))
    .replace(/\{D\}/g, () => `${pick(r, DAYS)}, ${pick(r, MONTHS)} ${1 + Math.floor(r() * 28)}`)
    .replace(/\{N\}/g, () => String(2 + Math.floor(r() * 97)))
    .replace(/\{M\}/g, () => String(1 + Math.floor(r() * 4)))
    .replace(/\{O\}/g, () => pick(r, ORDINALS))
    .replace(/\{Y\}/g, () => String(1950 + Math.floor(r() * 60)))
    .replace(/\{R\}/g, () => pick(r, ROLES))
    .replace(/\{crime\}/g, () => pick(r, CRIMES));
}

interface Family {
  who: string;
  subject: [string, string];
  plural: boolean;
  verb: [string, string];
  place: string;
  when: string;
  story: string;
}

function familyText(f: Family, plural = f.plural): string {
  const subject = (plural ? f.subject[1] : f.subject[0]).replace('{who}', f.who);
  const verb = plural ? f.verb[1] : f.verb[0];
  return `${subject} ${verb} ${f.place}, ${f.when}. ${f.story}`;
}

/** Curly quotes, dropped commas, an upper-cased word, a double space: what re-keying does. */
export function punctuationVariant(r: () => number, text: string): string {
  let t = text.replace(/'/g, '\u2019').replace(/"([^"]*)"/g, '\u201c$1\u201d');
  if (r() < 0.7) t = t.replace(/, /g, (m) => (r() < 0.5 ? ' ' : m));
  if (r() < 0.5) t = t.replace(/\b([a-z])(\w+)/, (_m, a: string, b: string) => a.toUpperCase() + b);
  if (r() < 0.5) t = t.replace(/ /, '  ');
  if (r() < 0.3) t = t.replace(/\.$/, '');
  if (t === text) t = `${text.replace(/\.$/, '')} .`;
  return t;
}

/** One word misspelt (a letter dropped), as in the seed's "Ecudorian". */
export function typoVariant(r: () => number, text: string): string {
  const words = text.split(' ');
  const long = words.map((w, i) => (/^[A-Za-z]{6,}$/.test(w) ? i : -1)).filter((i) => i >= 0);
  if (long.length === 0) return `${text} `;
  const i = pick(r, long);
  const w = words[i];
  const at = 1 + Math.floor(r() * (w.length - 2));
  words[i] = w.slice(0, at) + w.slice(at + 1);
  return words.join(' ');
}

export interface GeneratorOptions {
  seed: number;
  /** Mean number of families sharing one story (different photos, same background). */
  familiesPerStory?: number;
  /** Mean number of variants per family (0 = every caption distinct). */
  variantsPerFamily?: number;
}

/**
 * An endless stream of captions, families emitted together (base first, then its variants in a
 * random order), as a wire sends a gallery and then its corrections and re-sends.
 */
export function* generateCaptions(opts: GeneratorOptions): Generator<GeneratedCaption> {
  const r = prng(opts.seed);
  const perStory = opts.familiesPerStory ?? 1.6;
  const perFamily = opts.variantsPerFamily ?? 0.6;
  let familyNo = 0;
  for (;;) {
    const who = `${pick(r, ROLES)} ${person(r)}`;
    const nSentences = 1 + Math.floor(r() * 3);
    const cast = storyCast(r, who);
    const story = Array.from({ length: nSentences }, () => fill(r, pick(r, STORY), who, cast)).join(' ');
    const families = 1 + poisson(r, perStory - 1);
    for (let f = 0; f < families; f++) {
      const fam: Family = {
        who,
        subject: pick(r, SUBJECTS),
        plural: r() < 0.5,
        verb: pick(r, VERBS),
        place: `${pick(r, BUILDINGS)} in ${pick(r, AREAS)} ${pick(r, CITIES)}`,
        when: date(r),
        story,
      };
      const label = `f${familyNo++}`;
      const text = familyText(fam);
      yield { family: label, kind: 'base', raw: `${text} ${pick(r, CREDITS)(r)}` };
      const n = poisson(r, perFamily);
      for (let v = 0; v < n; v++) {
        const kind = pick(r, ['credit', 'trailing', 'number', 'punctuation', 'typo'] as const);
        yield { family: label, kind, raw: `${variantText(r, fam, text, kind)} ${pick(r, CREDITS)(r)}` };
      }
    }
  }
}

function variantText(r: () => number, fam: Family, text: string, kind: VariantKind): string {
  switch (kind) {
    case 'credit':
    case 'base':
      return text;
    case 'trailing':
      return `${text} ${fill(r, pick(r, TRAILING), fam.who)}`;
    case 'number':
      return familyText(fam, !fam.plural);
    case 'punctuation':
      return punctuationVariant(r, text);
    case 'typo':
      return typoVariant(r, text);
  }
}

function poisson(r: () => number, mean: number): number {
  if (mean <= 0) return 0;
  const l = Math.exp(-mean);
  let k = 0;
  let p = 1;
  for (;;) {
    p *= r();
    if (p <= l) return k;
    k++;
  }
}

/** Variants of a real seed caption (credit tail swapped, note appended, re-keyed, misspelt). */
export function seedVariants(r: () => number, raw: string, cleaned: string): Array<{ kind: VariantKind; raw: string }> {
  return [
    { kind: 'credit', raw: `${cleaned} ${pick(r, CREDITS)(r)}` },
    { kind: 'trailing', raw: `${cleaned} ${fill(r, pick(r, TRAILING), 'Julian Assange')} ${pick(r, CREDITS)(r)}` },
    { kind: 'punctuation', raw: punctuationVariant(r, raw) },
    { kind: 'typo', raw: `${typoVariant(r, cleaned)} ${pick(r, CREDITS)(r)}` },
  ];
}
