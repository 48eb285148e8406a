import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCreditsCommand } from '../../../../src/cli/creditsCommand';
import {
  defaultBoilerplateRules,
  findBoilerplate,
  loadBoilerplateRules,
  removedFileMarker,
} from '../../../../src/core/captions/boilerplate';
import shipped from '../../../../src/core/captions/boilerplate-rules.json';
import { cleanCaption } from '../../../../src/core/captions/cleanCaption';
import { normalizeCredit } from '../../../../src/core/credits/normalizeCredit';
import { loadCreditRules } from '../../../../src/core/credits/rules';
import { cpuMs } from '../../../helpers/cpuTime';
import { RulesFileError } from '../../../../src/core/rulesFile';

const credits = loadCreditRules();

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'photowire-boilerplate-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeRules(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

describe('the shipped boilerplate rules', () => {
  const examples = defaultBoilerplateRules().markers.flatMap((m) =>
    (m.examples ?? []).map((e) => [m.name, m.kind, e] as const),
  );

  it('has a dry-run example for every rule', () => {
    expect(defaultBoilerplateRules().version).toBe(shipped.version);
    for (const m of defaultBoilerplateRules().markers) expect(m.examples?.length ?? 0).toBeGreaterThan(0);
  });

  it.each(examples)('%s: removes the marker and keeps the caption (%#)', (_name, kind, e) => {
    const cleaned = cleanCaption(e.caption);
    expect(cleaned.caption).toBe(e.cleaned);
    expect(cleaned.removed).toContainEqual({ kind, text: e.removed });
  });
});

describe('wire boilerplate in captions', () => {
  const clean = (raw: string) => cleanCaption(raw, { rules: credits });

  it('removes markers that follow one another at the start, each with its kind', () => {
    const c = clean(
      'REFILE - CORRECTING DATE UPDATED CAPTION: FILE PHOTO: Police officers stand guard in London, June 22, 2012. REUTERS/Luke MacGregor',
    );
    expect(c.caption).toBe('Police officers stand guard in London, June 22, 2012.');
    expect(c.removed.map((r) => [r.kind, r.text])).toEqual([
      ['refile', 'REFILE - CORRECTING DATE'],
      ['caption-update', 'UPDATED CAPTION:'],
      ['file-marker', 'FILE PHOTO:'],
      ['credit-tail', 'REUTERS/Luke MacGregor'],
    ]);
  });

  it('keeps a bare marker word inside a reason, and ends the reason at a marker with its separator', () => {
    // CORRECTING is a marker of its own ("CORRECTING DATE - ..."), but after REFILE it is the reason.
    expect(
      clean(
        'REFILE - CORRECTING PHOTOGRAPHER NAME TOPSHOT - Fans cheer in Madrid, Spain, May 2, 2023. (Photo by Oscar DEL POZO / AFP)',
      ).removed.map((r) => [r.kind, r.text]),
    ).toEqual([
      ['refile', 'REFILE - CORRECTING PHOTOGRAPHER NAME'],
      ['highlight', 'TOPSHOT -'],
      ['credit-tail', '(Photo by Oscar DEL POZO / AFP)'],
    ]);
  });

  it("ends AFP's notes at ' / ' and never takes the caption with them", () => {
    // Before 2026-12-03 the note ran on and the credit-tail finder took the whole caption: it came out empty.
    const c = clean(
      'EDITORS NOTE: Graphic content / Relatives mourn at a hospital in Khan Yunis on October 9, 2023. (Photo by MAHMUD HAMS / AFP)',
    );
    expect(c.caption).toBe('Relatives mourn at a hospital in Khan Yunis on October 9, 2023.');
    expect(c.removed.map((r) => r.kind)).toEqual(['editor-note', 'credit-tail']);
  });

  it("removes AFP's correction notice to the end of the caption, after the credit", () => {
    const raw =
      'CORRECTION / Supporters wave flags in Lyon on May 2, 2023. (Photo by JEFF PACHOUD / AFP) / "The erroneous mention[s] appearing in the metadata of this photo by JEFF PACHOUD has been modified in AFP systems in the following manner: [Lyon] instead of [Marseille]. Please immediately remove the erroneous mention[s] from all your online services."';
    const c = clean(raw);
    expect(c.caption).toBe('Supporters wave flags in Lyon on May 2, 2023.');
    expect(c.removed.map((r) => r.kind)).toEqual(['caption-update', 'credit-tail', 'correction-notice']);
    expect(c.removed[2].text.startsWith('/ "The erroneous mention[s]')).toBe(true);
    // The same caption as first sent cleans to the same text: a correction is not a new caption.
    expect(clean('Supporters wave flags in Lyon on May 2, 2023. (Photo by JEFF PACHOUD / AFP)').caption).toBe(
      c.caption,
    );
  });

  it('ends a refile reason before the caption: a dateline, an abbreviation, a one-letter word', () => {
    expect(
      clean(
        'REFILE - CORRECTING TYPO LONDON, ENGLAND - MAY 30: Fans cheer on May 30, 2012 in London, England. (Photo by Oli Scarff/Getty Images)',
      ).caption,
    ).toBe('LONDON, ENGLAND - MAY 30: Fans cheer on May 30, 2012 in London, England.');
    expect(
      clean(
        'REFILE - ADDING RESTRICTIONS U.S. President Joe Biden speaks in Washington, U.S., May 3, 2023. REUTERS/Kevin Lamarque',
      ).caption,
    ).toBe('U.S. President Joe Biden speaks in Washington, U.S., May 3, 2023.');
    expect(clean('REPEAT A masked supporter stands outside the embassy. (AP Photo/Tim Hales)').caption).toBe(
      'A masked supporter stands outside the embassy.',
    );
    expect(
      clean('RETRANSMITTED WITH IMPROVED QUALITY Rescuers work in Antakya. REUTERS/Umit Bektas').removed[0],
    ).toEqual({
      kind: 'refile',
      text: 'RETRANSMITTED WITH IMPROVED QUALITY',
    });
  });

  it('ends a refile reason before a number that starts the caption, and keeps a corrected date in it', () => {
    // The caption's own date (Corbis/ZUMA style) and a picture number (US Navy style) are the caption's.
    expect(
      clean(
        'REFILE - CORRECTING TYPO 12 Mar 2020, Berlin, Germany --- Commuters wait on a platform. (Credit Image: © Jan Doe/ZUMA Wire)',
      ).caption,
    ).toBe('12 Mar 2020, Berlin, Germany --- Commuters wait on a platform.');
    expect(
      clean(
        'REFILE - ADDING CREDIT 170512-F-AB123-001 USAF airmen unload cargo at Ramstein Air Base. U.S. Air Force/Handout',
      ).removed[0],
    ).toEqual({ kind: 'refile', text: 'REFILE - ADDING CREDIT' });
    // A date after a month name is what the reason corrects.
    expect(
      clean(
        'REFILE - CORRECTING DATE TO MAY 5 A man walks past a mural in Kyiv, Ukraine, May 5, 2023. REUTERS/Gleb Garanich',
      ).removed[0],
    ).toEqual({ kind: 'refile', text: 'REFILE - CORRECTING DATE TO MAY 5' });
  });

  it('removes Reuters technical sentences and editors notes wherever a sentence starts, and nothing after them', () => {
    const c = clean(
      'EDS NOTE: GRAPHIC CONTENT. A man walks past a damaged building in Kharkiv, Ukraine, May 3, 2022. Picture taken with a drone. The city was shelled overnight. REUTERS/Ivan Alvarado',
    );
    expect(c.caption).toBe(
      'A man walks past a damaged building in Kharkiv, Ukraine, May 3, 2022. The city was shelled overnight.',
    );
    expect(c.removed.map((r) => r.kind)).toEqual(['editor-note', 'editor-note', 'credit-tail']);
    expect(c.creditTail).toBe('REUTERS/Ivan Alvarado');
    // Abbreviations and initials inside the note do not end it early.
    expect(
      clean(
        'Traffic in Washington, D.C., U.S. Picture taken with a mobile phone in Washington, D.C., U.S., June 3, 2023. REUTERS/Jim Bourg',
      ).caption,
    ).toBe('Traffic in Washington, D.C., U.S.');
  });

  it('removes search notes, bracketed story notes and pictures-of-the-day tags anywhere', () => {
    const c = clean(
      '(ADDS NAME OF PHOTOGRAPHER) A child plays in a flooded street in Derna, Libya, September 14, 2023. SEARCH "LIBYA FLOODS" FOR THIS STORY. SEARCH "WIDER IMAGE" FOR ALL STORIES. TPX IMAGES OF THE DAY REUTERS/Esam Omran Al-Fetori',
    );
    expect(c.caption).toBe('A child plays in a flooded street in Derna, Libya, September 14, 2023.');
    expect(c.removed.map((r) => [r.kind, r.text])).toEqual([
      ['story-note', '(ADDS NAME OF PHOTOGRAPHER)'],
      ['editor-note', 'SEARCH "LIBYA FLOODS" FOR THIS STORY.'],
      ['editor-note', 'SEARCH "WIDER IMAGE" FOR ALL STORIES.'],
      ['editor-note', 'TPX IMAGES OF THE DAY'],
      ['credit-tail', 'REUTERS/Esam Omran Al-Fetori'],
    ]);
    expect(
      clean('Flood victims in Derna, Libya. SEARCH “LIBYA FLOODS” FOR THIS STORY. REUTERS/Esam Omran Al-Fetori')
        .caption,
    ).toBe('Flood victims in Derna, Libya.');
  });

  it('leaves caption text alone that only looks like a marker', () => {
    for (const raw of [
      'A picture taken by a drone shows the flooded town of Derna, Libya.',
      'The file photo shows Julian Assange in 2011. Rescue teams search for survivors.',
      'Police say the suspect will repeat the test. Officers refile the report (adds a page) on Monday.',
      'Filed photos of the fire are shown in Lisbon.',
      'Fans of the FILE band sing in Oslo.',
      'Picture perfect: the sun sets over Santorini, Greece.',
      'Picture taken in 1969 shows astronaut Buzz Aldrin on the Moon.',
      'Photo taken on Feb. 9, 2023 shows rescuers searching for survivors in Hatay, Turkey.',
    ]) {
      expect(clean(raw).caption).toBe(raw);
    }
  });

  it('keeps a note without a full stop from swallowing the credit after it', () => {
    const c = clean('Protesters march in Paris, France. Picture taken with a mobile phone REUTERS/Stephane Mahe');
    expect(c.creditTail).toBe('REUTERS/Stephane Mahe');
    expect(clean('Protesters march in Paris, France. Picture taken with a mobile phone').caption).toBe(
      'Protesters march in Paris, France.',
    );
  });

  it('sets credit.flags.file from a removed file marker, and only then', () => {
    const flagged = (raw: string) => {
      const c = clean(raw);
      const credit = normalizeCredit(
        { captionTail: c.creditTail, byline: [], creditLine: null, source: null, copyright: null },
        credits,
      );
      return removedFileMarker(c.removed) || credit.flags.file;
    };
    expect(
      flagged(
        "UPDATED CAPTION: FILE PHOTO: Britain's Prime Minister speaks in London, July 6, 2022. REUTERS/Henry Nicholls",
      ),
    ).toBe(true);
    expect(
      flagged(
        "REFILE - CORRECTING TYPO Britain's Prime Minister speaks in London, July 6, 2022. REUTERS/Henry Nicholls",
      ),
    ).toBe(false);
  });

  it('stays linear on hostile input: 200 KB of near-markers in well under a second', () => {
    const hostile = [
      'REFILE - '.repeat(20_000),
      `SEARCH "${'A'.repeat(150)}`.repeat(1_000),
      'EDITORS NOTE: U.S. '.repeat(10_000),
      '(ADDS '.repeat(30_000),
      'Picture taken U.S. '.repeat(10_000),
      `${'ABCDEFGHIJ '.repeat(15_000)}`,
    ];
    for (const text of hostile) {
      // Fastest of three: a busy shared core must not fail a linear scan.
      let best = Infinity;
      for (let round = 0; round < 3 && best >= 1_000; round++) {
        best = Math.min(
          best,
          cpuMs(() => findBoilerplate(text)),
        );
      }
      // Quadratic scanning would take minutes here (it did before notes were bounded to 600 characters).
      expect(best).toBeLessThan(1_000);
    }
  });
});

describe('an operator boilerplate file', () => {
  it('adds markers, replaces a shipped one by name and disables others', () => {
    const file = writeRules(
      'desk.json',
      JSON.stringify({
        version: 'desk-2',
        disable: ['images-of-the-day'],
        markers: [
          { name: 'archive', kind: 'file-marker', at: 'start', phrases: ['ARCHIVE PHOTO'], separator: 'required' },
          { name: 'picture-taken', kind: 'technical-note', at: 'sentence', case: 'any', phrases: ['Picture taken'] },
        ],
      }),
    );
    const rules = loadBoilerplateRules(file);
    expect(rules.version).toBe(`${shipped.version}+desk-2`);
    const c = cleanCaption('ARCHIVE PHOTO: Fans cheer in Madrid. Picture taken through glass. TPX IMAGES OF THE DAY', {
      boilerplate: rules,
    });
    expect(c.removed.map((r) => r.kind)).toEqual(['file-marker', 'technical-note', 'editor-note']); // TPX is still an editor note of the cleaner's own list
    expect(c.caption).toBe('Fans cheer in Madrid.');
    expect(loadBoilerplateRules('')).toBe(defaultBoilerplateRules());
  });

  it.each([
    [
      'bad-json.json',
      '{\n  "version": "x",\n  "markers": [\n  ]\n  ,\n}\n',
      /bad-json\.json, line 5, column 3: not valid JSON: trailing comma before \}/,
    ],
    [
      'unknown-key.json',
      '{\n  "version": "x",\n  "markers": [\n    { "name": "a", "kind": "b", "at": "start", "phrases": ["X"], "phrase": "Y" }\n  ]\n}\n',
      /unknown-key\.json, line 4: markers\.0\.phrase: unknown key/,
    ],
    [
      'placeholder.json',
      '{\n  "version": "x",\n  "markers": [\n    {\n      "name": "a", "kind": "b", "at": "anywhere",\n      "phrases": ["SEARCH {anything}"]\n    }\n  ]\n}\n',
      /line 6: markers\.0\.phrases\.0: unknown placeholder \{anything\}/,
    ],
    [
      'where.json',
      '{\n  "version": "x",\n  "markers": [\n    { "name": "a", "kind": "b", "at": "nowhere", "phrases": ["X"] }\n  ]\n}\n',
      /line 4: markers\.0\.at: /,
    ],
    [
      'reason.json',
      '{\n  "version": "x",\n  "markers": [\n    { "name": "a", "kind": "b", "at": "sentence", "phrases": ["X"],\n      "reason": true }\n  ]\n}\n',
      /line 5: markers\.0\.reason: only a rule with "at": "start"/,
    ],
    [
      'disable.json',
      '{\n  "version": "x",\n  "disable": [\n    "tpx"\n  ]\n}\n',
      /line 4: disable\.0: no shipped rule is named "tpx"/,
    ],
    ['missing.json', '{\n  "markers": []\n}\n', /line 1: version: required but missing/],
  ])('refuses %s with its line and the reason', (name, text, message) => {
    const file = writeRules(name, text);
    expect(() => loadBoilerplateRules(file)).toThrow(RulesFileError);
    expect(() => loadBoilerplateRules(file)).toThrow(message);
  });

  it('is refused when it cannot be read', () => {
    expect(() => loadBoilerplateRules(path.join(dir, 'nope.json'))).toThrow(/nope\.json: cannot be read \(ENOENT\)/);
  });

  it('can be tried with `photowire credits --boilerplate`, which prints what was removed', async () => {
    const file = writeRules(
      'trial.json',
      JSON.stringify({
        version: 't1',
        markers: [{ name: 'flash', kind: 'flash', at: 'start', phrases: ['FLASH'], separator: 'required' }],
      }),
    );
    const output = new PassThrough();
    let text = '';
    output.on('data', (c: Buffer) => (text += c.toString()));
    await runCreditsCommand(
      Readable.from(['FLASH: Fans cheer in Madrid on 12 May 2023. EPA-EFE/Juanjo Martin']),
      output,
      { boilerplatePath: file },
    );
    expect(JSON.parse(text)).toMatchObject({
      caption: 'Fans cheer in Madrid on 12 May 2023.',
      removed: [
        { kind: 'flash', text: 'FLASH:' },
        { kind: 'credit-tail', text: 'EPA-EFE/Juanjo Martin' },
      ],
    });
  });
});
