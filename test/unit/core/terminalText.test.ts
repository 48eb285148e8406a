import { escapeTerminal, escapeTerminalLines, printable } from '../../../src/core/terminalText';
import { formatSummary } from '../../../src/cli/printSummary';
import { formatCluster, formatClusters } from '../../../src/cli/clustersText';
import { formatRuns } from '../../../src/app/runs/formatRuns';
import { formatScheduleList } from '../../../src/app/schedules/formatSchedules';
import { creditTableRow } from '../../../src/cli/creditsCommand';
import type { BatchSummary } from '../../../src/app/runtime';
import type { ClusterView } from '../../../src/app/clusters/listClusterView';
import type { RunRecord } from '../../../src/core/runs/runRecord';

/** Every character a terminal acts on instead of showing (what escapeTerminal must never let through). */
const RAW =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufff9-\ufffb]/u;
const ATTACK = '\x1b]0;pwned\x07\x1b[2J\x1b[31mred\u202egnp.exe\u202c';

describe('escapeTerminal', () => {
  it('shows C0 controls, DEL and C1 controls as \\xHH, and newline, CR and tab by name', () => {
    expect(escapeTerminal('a\x1b[2Jb')).toBe('a\\x1b[2Jb');
    expect(escapeTerminal('\x1b]0;title\x07')).toBe('\\x1b]0;title\\x07');
    expect(escapeTerminal('x\ny\rz\tw')).toBe('x\\ny\\rz\\tw');
    expect(escapeTerminal('\x00\x7f\x80\x9b\x9f')).toBe('\\x00\\x7f\\x80\\x9b\\x9f');
  });

  it('shows the bidi overrides, embeddings, isolates and marks and the line separators as \\uHHHH', () => {
    for (let c = 0x202a; c <= 0x202e; c++) expect(escapeTerminal(String.fromCharCode(c))).toBe(`\\u${c.toString(16)}`);
    for (let c = 0x2066; c <= 0x2069; c++) expect(escapeTerminal(String.fromCharCode(c))).toBe(`\\u${c.toString(16)}`);
    expect(escapeTerminal('\u200e\u200f\u061c\u2028\u2029\ufff9')).toBe('\\u200e\\u200f\\u061c\\u2028\\u2029\\ufff9');
    expect(escapeTerminal('photo\u202egnp.exe')).toBe('photo\\u202egnp.exe');
  });

  it('leaves printable text alone: every script, accents, emoji with their joiners, no-break spaces, backslashes', () => {
    const text = 'Łódź żółć, Ελλάδα, Москва, 東京, عربي, עברית, नमस्ते, 👩‍👩‍👧 « © » \u00a0 C:\\photos\\a.jpg \\n literally';
    expect(escapeTerminal(text)).toBe(text);
    expect(escapeTerminal('')).toBe('');
  });

  it('leaves nothing a terminal acts on, and escaping twice changes nothing', () => {
    let all = '';
    for (let c = 0; c < 0x3000; c++) all += String.fromCharCode(c);
    all += '\ufff9\ufffa\ufffb\ufeff';
    const once = escapeTerminal(all);
    expect(once).not.toMatch(RAW);
    expect(escapeTerminal(once)).toBe(once);
  });
});

describe('printable and escapeTerminalLines', () => {
  it('escapes the values put into a template, never the template itself', () => {
    const file = 'photo\nINFO batch done, 0 failed.jpg';
    expect(printable`feed ${file}: ${ATTACK}\n`).toBe(
      'feed photo\\nINFO batch done, 0 failed.jpg: \\x1b]0;pwned\\x07\\x1b[2J\\x1b[31mred\\u202egnp.exe\\u202c\n',
    );
    expect(printable`${1} of ${null} ${undefined}`).toBe('1 of null undefined');
  });

  it("keeps a message's own lines, escaping the rest", () => {
    expect(escapeTerminalLines('invalid configuration:\n  - X\x1b[2J\r')).toBe(
      'invalid configuration:\n  - X\\x1b[2J\\r',
    );
  });
});

describe("the CLI's text formatters escape what came from a feed", () => {
  const forged = 'INFO batch done, 0 failed';

  it('a batch summary: feed path, warnings and failure messages', () => {
    const s = {
      batchId: 'b-1',
      format: 'manifest-ndjson',
      feed: `/x/evil\n${forged}.ndjson`,
      state: 'done',
      items: 1,
      ok: 0,
      failed: 1,
      pending: 0,
      photos: 1,
      captionOnly: 0,
      distinctCaptions: 0,
      clusters: 0,
      duplicates: 0,
      joinedEarlier: 0,
      lowConfidenceCredits: 0,
      skipped: { [`te\x1bxt`]: 1 },
      records: '/x/records.ndjson',
      renditions: '/x/renditions',
      warnings: [`FIELD_CAPPED ${ATTACK}`],
      failures: [
        { position: 0, itemId: 'b-1-0001', code: 'IMAGE_NOT_FOUND', message: `/x/photo\n${forged}.jpg: no such file` },
      ],
      processingMs: 10,
      elapsedMs: 10,
      complete: true,
    } as unknown as BatchSummary;
    const out = formatSummary(s);
    expect(out).not.toMatch(RAW);
    expect(out.split('\n').some((l) => l.startsWith('INFO'))).toBe(false);
    expect(out).toContain(`evil\\n${forged}.ndjson`);
    expect(out).toContain(`photo\\n${forged}.jpg: no such file`);
  });

  it('clusters: caption, credit, diff words and why (list and show)', () => {
    const view = [
      {
        id: 'c1',
        size: 2,
        canonicalId: 'i1',
        canonicalCaption: `Crowd ${ATTACK}`,
        members: [
          { itemId: 'i1', exact: true, similarity: 1, credit: `AP\x1b[31m`, diff: null },
          {
            itemId: 'i2',
            exact: false,
            similarity: 0.9,
            credit: null,
            diff: { edits: [{ at: 1, deleted: 'a\u202e', inserted: `b\n${forged}` }], more: 0 },
            why: {
              matched: ['subject'],
              background: 'appended',
              edits: [{ kind: 'spelling', from: `ecudorian\n${forged}`, to: `ecuadorian${ATTACK}` }],
            },
          },
        ],
      },
    ] as unknown as ClusterView[];
    const out = formatClusters(view, 2);
    expect(formatCluster(view[0])).toBe(out);
    expect(out).not.toMatch(RAW);
    expect(out.split('\n').some((l) => l.startsWith('INFO'))).toBe(false);
    expect(out).toContain('\\x1b]0;pwned\\x07');
    // why, on the member's next line: the part matched, the background, the edit with its words escaped.
    expect(out).toContain(
      `      why: subject matched, background appended, spelling "ecudorian\\n${forged}" -> "ecuadorian\\x1b]0;pwned`,
    );
  });

  it('runs, schedules and the credits table', () => {
    const run = {
      schedule: `night\x1b[2J`,
      startedAt: '2026-12-01T02:00:00Z',
      durationMs: 1000,
      files: 1,
      items: 1,
      ok: 1,
      duplicates: 0,
      failed: 0,
      state: 'done',
      batchId: 'b',
      source: `/in/${ATTACK}`,
      note: `nothing new\n${forged}`,
    } as unknown as RunRecord;
    const texts = [
      formatRuns([run]),
      formatScheduleList([{ name: `n\u202e`, every: '1m', source: `/in\n${forged}`, next: null } as never], [run]),
      creditTableRow(`Jo ${ATTACK} Bloggs/AP`, {
        creators: [`Jo\x9b`],
        agency: 'AP',
        distributor: null,
        line: null,
        confidence: 'high',
        flags: { pool: false, handout: false, file: false, mandatory: false, restrictions: [`NO\x1bSALES`] },
      } as never),
    ];
    for (const out of texts) {
      expect(out).not.toMatch(RAW);
      expect(out.split('\n').some((l) => l.startsWith('INFO'))).toBe(false);
    }
  });
});
