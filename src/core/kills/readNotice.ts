import type { Notice, NoticeSource } from '../../schemas/notice';
import { RIGHTS_SOURCES, type RightsSourceKind } from '../../schemas/rights';
import {
  compileRightsRules,
  type CompiledRightsRules,
  type NoticeKind,
  type NoticeValue,
} from '../rights/compileRules';
import type { ItemRightsInput } from '../rights/input';
import { selectHits, type Hit } from '../rights/phraseMatcher';
import { defaultRightsRules, type RightsRules } from '../rights/rules';
import { tokenize, type Token } from '../rights/tokens';
import { idAt, idsAfter, urnsIn } from './agencyIds';

/**
 * Kill, withdrawal and correction notices. A notice is never read from ordinary prose: a caption
 * about people "killed" in an attack, or about agencies that "issued a kill notice", has no
 * notice heading at its start and no notice phrase in capitals. What counts:
 *  - a status: NewsML-G2 pubStatus stat:canceled (kill) or stat:withheld (withdrawal), a
 *    sig:correction signal; NITF management-status canceled/withheld, of the document or of the
 *    one it names (management-doc-idref);
 *  - a heading at the start of a notes text (Special Instructions, edNote, ed-msg, caption notes)
 *    or, written in capitals, of a caption or headline: "MANDATORY KILL", "PICTURE KILLED",
 *    "ELIMINATE:", "WITHDRAWN", "CORRECTS ..." (after prefixes such as "ADVISORY", "EDS NOTE"
 *    and the ids of the advisory itself);
 *  - a notice phrase: "THIS PHOTO HAS BEEN KILLED", "PLEASE DELETE", "FROM ALL YOUR SYSTEMS".
 */

const RANK: Record<NoticeKind, number> = { kill: 3, withdraw: 2, correction: 1 };
const MAX_TEXT = 2000;
const MAX_REASON = 500;
const HEADING_WINDOW = 10;

interface TextNotice {
  kind: NoticeKind;
  source: NoticeSource;
  text: string;
  rule: string;
  reason: string | null;
  ids: string[];
}

function clip(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function strongest(hits: Hit<NoticeValue>[]): Hit<NoticeValue> | null {
  let best: Hit<NoticeValue> | null = null;
  const rank = (h: Hit<NoticeValue>) => (h.pattern.value.type === 'idContext' ? 0 : RANK[h.pattern.value.kind]);
  for (const h of hits) {
    if (!best || h.to - h.from > best.to - best.from || (h.to - h.from === best.to - best.from && rank(h) > rank(best)))
      best = h;
  }
  return best;
}

/**
 * The heading a notes text starts with, after prefixes ("ADVISORY", "AP", "EDS NOTE") and ids
 * ("ADVISORY: CPT101 WITHDRAWN"), with the ids passed on the way.
 */
function headingOf(
  c: CompiledRightsRules,
  text: string,
  tokens: readonly Token[],
  kind: RightsSourceKind,
): { hit: Hit<NoticeValue>; ids: string[] } | null {
  const isId = (k: number) => idAt(text, tokens[k]) !== null;
  const ids: string[] = [];
  let p = 0;
  while (p < tokens.length && p < HEADING_WINDOW) {
    const hits = c.notices.matchAt(tokens, p, kind, isId).filter((h) => h.pattern.value.type === 'heading');
    const valid = hits.filter((h) => {
      if (!h.pattern.opts.end || kind !== 'caption') return true;
      // A one-word heading in a caption or headline ("KILL") must be followed by ":" or "-" or an id, never end a headline.
      const next = tokens[h.to];
      return next !== undefined && (isId(h.to) || /[:\-\u2013\u2014]/.test(next.sep));
    });
    const best = strongest(valid);
    if (best) return { hit: best, ids };
    const prefix = c.prefixes.longestAt(tokens, p);
    if (prefix) p = prefix.to;
    else if (isId(p)) {
      const id = idAt(text, tokens[p])!;
      ids.push(id);
      const end = tokens[p].start + id.length;
      while (p < tokens.length && tokens[p].start < end) p++;
    } else break;
  }
  return null;
}

function fromText(c: CompiledRightsRules, source: keyof typeof RIGHTS_SOURCES, text: string): TextNotice | null {
  const kind = RIGHTS_SOURCES[source];
  if (kind !== 'instructions' && kind !== 'caption') return null;
  if (!text.trim()) return null;
  const tokens = tokenize(text);
  const isId = (k: number) => idAt(text, tokens[k]) !== null;
  const found = headingOf(c, text, tokens, kind);
  const heading = found?.hit ?? null;
  const phrases = selectHits(c.notices.findAll(tokens, kind, isId).filter((h) => h.pattern.value.type === 'phrase'));
  const best = heading ?? strongest(phrases);
  if (!best || best.pattern.value.type === 'idContext') return null;
  let noticeKind = best.pattern.value.kind;
  // A heading of one kind with a stronger phrase in the body ("WITHDRAWN ... please delete it from your systems") is the stronger.
  for (const h of phrases)
    if (h.pattern.value.type === 'phrase' && RANK[h.pattern.value.kind] > RANK[noticeKind])
      noticeKind = h.pattern.value.kind;

  const ids: string[] = [];
  const add = (xs: string[]) => {
    for (const x of xs) if (!ids.includes(x)) ids.push(x);
  };
  if (found) add(found.ids);
  if (heading) add(idsAfter(text, tokens, heading.to).ids);
  for (const h of c.notices.findAll(tokens, kind, isId)) {
    if (h.pattern.value.type === 'idContext' || h === heading) add(idsAfter(text, tokens, h.to).ids);
  }
  add(urnsIn(text, tokens));

  // The reason starts after the heading and any headings repeated after it ("KILL KILL - PICTURE KILLED - ...").
  let reasonFrom = heading ? heading.to : 0;
  for (let guard = 0; heading && guard < 4 && reasonFrom < tokens.length; guard++) {
    const again = strongest(
      c.notices.matchAt(tokens, reasonFrom, kind, isId).filter((h) => h.pattern.value.type === 'heading'),
    );
    if (!again) break;
    reasonFrom = again.to;
  }
  const after = heading
    ? reasonFrom < tokens.length
      ? text.slice(tokens[reasonFrom - 1].end).replace(/^[\s:;,.\-\u2013\u2014*]+/, '')
      : ''
    : text;
  return {
    kind: noticeKind,
    source,
    text: text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text,
    rule: `text:${heading ? 'heading' : 'phrase'}:${best.pattern.phrase}`,
    reason: after.trim() ? clip(after, MAX_REASON) : null,
    ids,
  };
}

interface StatusNotice {
  kind: NoticeKind;
  source: NoticeSource;
  text: string;
  rule: string;
  targets: string[];
}

function statusNotices(input: ItemRightsInput): StatusNotice[] {
  const out: StatusNotice[] = [];
  const g2 = input.newsml ?? {};
  const guid = g2.guid?.trim();
  const ps = g2.pubStatus
    ?.trim()
    .toLowerCase()
    .replace(/^.*[/:]/, '');
  if (ps === 'canceled' || ps === 'cancelled' || ps === 'withheld') {
    out.push({
      kind: ps === 'withheld' ? 'withdraw' : 'kill',
      source: 'newsml:pubStatus',
      text: g2.pubStatus!,
      rule: `newsml:stat:${ps === 'withheld' ? 'withheld' : 'canceled'}`,
      targets: guid ? [guid] : [],
    });
  }
  for (const sig of g2.signals ?? []) {
    if (/(?:^|[:/])correction$/i.test(sig.trim().slice(-40))) {
      out.push({
        kind: 'correction',
        source: 'newsml:signal',
        text: sig,
        rule: 'newsml:sig:correction',
        targets: guid ? [guid] : [],
      });
    }
  }
  const nitf = input.nitf ?? {};
  const status = (s: string | undefined) => {
    const v = s?.trim().toLowerCase();
    return v === 'canceled' || v === 'cancelled' ? 'kill' : v === 'withheld' ? 'withdraw' : null;
  };
  const own = status(nitf.managementStatus);
  if (own) {
    out.push({
      kind: own,
      source: 'nitf:management-status',
      text: `management-status="${nitf.managementStatus}"`,
      rule: `nitf:management-status:${nitf.managementStatus!.trim().toLowerCase()}`,
      targets: nitf.docId?.trim() ? [nitf.docId.trim()] : [],
    });
  }
  const other = status(nitf.managementIdrefStatus);
  if (other && nitf.managementDocIdref?.trim()) {
    out.push({
      kind: other,
      source: 'nitf:management-status',
      text: `management-doc-idref="${nitf.managementDocIdref}" management-idref-status="${nitf.managementIdrefStatus}"`,
      rule: `nitf:management-idref-status:${nitf.managementIdrefStatus!.trim().toLowerCase()}`,
      targets: [nitf.managementDocIdref.trim()],
    });
  }
  return out;
}

/**
 * The kill, withdrawal or correction an item carries, or null. A kill outranks a withdrawal,
 * which outranks a correction. Targets are every agency id the notice names (status targets,
 * ids quoted in the texts, URNs); a notice that names none targets the item's own ids. Pure.
 */
export function readNotice(input: ItemRightsInput, rules: RightsRules = defaultRightsRules()): Notice | null {
  const c = compileRightsRules(rules);
  const statuses = statusNotices(input);
  const texts = input.texts.map((t) => fromText(c, t.source, t.text)).filter((x): x is TextNotice => x !== null);
  if (!statuses.length && !texts.length) return null;

  const rankOf = (k: NoticeKind) => RANK[k];
  const kind = [...statuses.map((s) => s.kind), ...texts.map((t) => t.kind)].reduce((a, b) =>
    rankOf(b) > rankOf(a) ? b : a,
  );
  const status = statuses.find((s) => s.kind === kind);
  const text = texts.find((t) => t.kind === kind);

  const targets: string[] = [];
  const add = (xs: readonly string[]) => {
    for (const x of xs) if (x && !targets.includes(x)) targets.push(x);
  };
  for (const s of statuses) if (s.kind === kind) add(s.targets);
  for (const t of texts) if (t.kind === kind) add(t.ids);
  const self = [input.newsml?.guid, input.ids?.agencyId, input.ids?.transmissionReference, input.nitf?.docId]
    .map((x) => x?.trim() ?? '')
    .filter((x) => x !== '');
  if (!targets.length) add(self);

  const reason =
    text?.reason ??
    (status
      ? (() => {
          const note = input.texts.find((t) => RIGHTS_SOURCES[t.source] === 'instructions' && t.text.trim());
          return note ? clip(note.text, MAX_REASON) : null;
        })()
      : null);

  return {
    kind,
    targets,
    selfTargeted: targets.some((t) => self.includes(t)),
    reason,
    source: status?.source ?? text!.source,
    text: status?.text ?? text!.text,
    rule: status?.rule ?? text!.rule,
    confidence: targets.length ? 'high' : 'low',
    rulesVersion: rules.version,
  };
}
