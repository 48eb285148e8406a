import type { FeedItem, IptcFields } from '../../schemas/feedItem';
import { decodeWireText } from './decodeFeedText';
import { compact, oneLine } from './xml/fields';

const SOH = 0x01;
const STX = '\x02';

/** At most this many messages are read from one file: a real wire file holds one, a spool a few hundred. */
export const MAX_WIRE_MESSAGES = 10_000;
const MAX_CHARSET_WARNINGS = 20;

export interface TextWireFeed {
  items: FeedItem[];
  warnings: string[];
}

/** Whether a text is an IPTC 7901 / ANPA 1312 transmission: SOH first, after any SYN padding. */
export function looksLikeTextWire(text: string): boolean {
  return /^\x16*\x01/.test(text);
}

/**
 * IPTC 7901 and ANPA 1312 text wires (dpa, AP, Kyodo, national agencies) → one caption-only item
 * per message. A message runs from SOH to the next SOH (or the end); its heading lines come before
 * STX, its text between STX and ETX. Each message's bytes are decoded alone: UTF-8 when valid, else
 * Windows-1252 (src/core/feeds/decodeFeedText.ts), since one spool may mix both.
 *
 * IPTC 7901 (dpa): the first line is `<source><number> <priority> <category> <words>`; the lines up
 * to STX are the slug ("Yemen/conflict/") and the take ("EXTRA", "REFILE 1ST LEAD"); the text opens
 * with the headline and any "By ..." line, ended by " =", then the story; "The following information
 * is not (intended) for publication" starts a note to editors; the trailer holds the desk's initials
 * and the send time ("212101 GMT Nov 18": day 21, 21:01 GMT, November 2018).
 *
 * ANPA 1312 (AP): `<level><number>` US `<selector>`, then `<priority> <category>` and the keyword
 * line ("BC-BKN--Heat-Hawks 1stLd-Writethru 02-20 0500"); in the text, lines opening with `^` are
 * headings (slug line, headline, photo numbers, "Eds:" notes, by-line ended by `=`), tab-indented
 * lines are the story, and "AP-WF-02-20-16 0337GMT" the send time.
 */
export function parseTextWire(bytes: Buffer, file: string): TextWireFeed {
  const items: FeedItem[] = [];
  const warnings: string[] = [];
  const starts: number[] = [];
  for (let i = bytes.indexOf(SOH); i !== -1; i = bytes.indexOf(SOH, i + 1)) starts.push(i);
  if (starts.length > MAX_WIRE_MESSAGES) {
    warnings.push(
      `${file}: ${starts.length} messages, over the cap of ${MAX_WIRE_MESSAGES}; the first ${MAX_WIRE_MESSAGES} are read`,
    );
    starts.length = MAX_WIRE_MESSAGES;
  }
  let line = 1;
  let counted = 0;
  const latin1: Array<{ line: number; n: number }> = [];
  starts.forEach((start, position) => {
    for (let i = bytes.indexOf(0x0a, counted); i !== -1 && i < start; i = bytes.indexOf(0x0a, i + 1)) {
      line++;
      counted = i + 1;
    }
    const end = starts[position + 1] ?? bytes.length;
    const { text, encoding } = decodeWireText(bytes.subarray(start + 1, end));
    const item = readMessage(text, { file, position, line, format: 'iptc7901' });
    if (encoding === 'windows-1252') latin1.push({ line, n: position + 1 });
    items.push(item);
  });
  // One line per message up to a few; a spool of thousands of Latin-1 messages gets one line more, not thousands.
  latin1
    .slice(0, MAX_CHARSET_WARNINGS)
    .forEach((m) => warnings.push(`${file}:${m.line}: message ${m.n} is not UTF-8; read as Latin-1 (Windows-1252)`));
  if (latin1.length > MAX_CHARSET_WARNINGS)
    warnings.push(
      `${file}: ... and ${latin1.length - MAX_CHARSET_WARNINGS} more messages read as Latin-1 (Windows-1252)`,
    );
  return { items, warnings };
}

type Where = { file: string; position: number; line: number; format: string };

function readMessage(raw: string, where: Where): FeedItem {
  const stx = raw.indexOf(STX);
  const label = `${where.file}:${where.line}: message ${where.position + 1}`;
  if (stx === -1) {
    return {
      source: where,
      captionRaw: '',
      iptc: {},
      image: null,
      error: { code: 'FEED_MALFORMED', message: `${label}: no STX: the message has a heading but no text` },
    };
  }
  const heading = raw
    .slice(0, stx)
    .split(/\r?\n/)
    .map((l) => l.replace(/[\x00-\x08\x0b-\x1f]+/g, ' ').trim());
  // ETX ends the text (EOT when a sender leaves ETX out).
  let body = raw.slice(stx + 1);
  const etx = body.search(/[\x03\x04]/);
  if (etx !== -1) body = body.slice(0, etx);
  const first = raw.slice(0, stx).split(/\r?\n/, 1)[0];
  const anpa = /^([a-z])(\d{4})\x1f/i.exec(first);
  return anpa ? readAnpa(heading, body, `${anpa[1]}${anpa[2]}`, where) : read7901(heading, body, where);
}

const IPTC7901_HEADER = /^([A-Za-z]*)(\d+) (\S) (\S{1,3}) (\d+)/;

function read7901(heading: string[], body: string, where: Where): FeedItem {
  const header = IPTC7901_HEADER.exec(heading[0] ?? '');
  const rest = heading.slice(1).filter((l) => l !== '');
  const slug = rest[0]?.replace(/\/+$/, '');
  const take = rest.slice(1).join(' ');

  const lines = body.split(/\r?\n/);
  // The headline block ends with " =" within the first lines; without one, the first line is the headline.
  let headEnd = lines.slice(0, 8).findIndex((l) => /\s=\s*$/.test(l) || l.trim() === '=');
  if (headEnd === -1) headEnd = 0;
  const headLines = lines
    .slice(0, headEnd + 1)
    .map((l) => l.replace(/\s*=\s*$/, '').trim())
    .filter((l) => l !== '');
  const bylines = headLines.filter((l) => /^By\s/i.test(l)).map((l) => l.replace(/^By\s+/i, ''));
  const headline = headLines.filter((l) => !/^By\s/i.test(l)).join(' ');

  let story = lines.slice(headEnd + 1);
  // The trailer closes the message: the desk's initials ("dpa grj rmo") and the send time.
  const trailer = takeTrailer(story, /^(\d{2})(\d{2})(\d{2}) GMT ([A-Z][a-z]{2}) (\d{2})$/, (m) => sentFrom7901(m));
  const dropBlank = () => {
    while (story.length > 0 && story[story.length - 1].trim() === '') story.pop();
  };
  dropBlank();
  if (story.length > 0 && /^[a-z]{2,5}(?: [a-z]{2,4}){1,6}$/.test(story[story.length - 1].trim())) story.pop();
  dropBlank();
  const noteAt = story.findIndex((l) => /information is not (?:intended )?for publication/i.test(l));
  let note =
    noteAt === -1
      ? undefined
      : story
          .slice(noteAt + 1)
          .join('\n')
          .trim();
  if (noteAt !== -1) story = story.slice(0, noteAt);
  // dpa's "# Notebook" (links, notes to editors) follows the story: for the desk, not the caption.
  const notebookAt = story.findIndex((l) => /^#\s+Notebook\s*$/i.test(l));
  if (notebookAt !== -1) {
    note = [
      story
        .slice(notebookAt)
        .join('\n')
        .replace(/\n\*(?:\s*\*)+\s*$/, '')
        .trim(),
      note,
    ]
      .filter(Boolean)
      .join('\n');
    story = story.slice(0, notebookAt);
  }
  // A closing "* * * *" before the note is not caption either.
  while (
    story.length > 0 &&
    (story[story.length - 1].trim() === '' || /^\*(?:\s*\*)+$/.test(story[story.length - 1].trim()))
  )
    story.pop();
  const caption = story.join('\n').trim();

  const iptc: IptcFields = compact({
    caption: caption || undefined,
    headline: oneLine(headline),
    byline: bylines.length > 0 ? bylines : undefined,
    objectName: slug || undefined,
    urgency: header?.[3],
    category: header?.[4],
    transmissionReference: header ? `${header[1]}${header[2]}` : undefined,
    source: sourceOf(heading[0]),
    specialInstructions: [take, note].filter(Boolean).join('\n') || undefined,
    ...storyDateline(caption),
  });
  return wireItem(where, caption, iptc, trailer);
}

const ANPA_KEYWORD_LINE = /^([a-z])\s+([a-z]{1,2})\s+(.*?)\s+(\d{1,2}-\d{1,2})\s+(\d{0,4})\s*$/i;

function readAnpa(heading: string[], body: string, reference: string, where: Where): FeedItem {
  const keywordLine = ANPA_KEYWORD_LINE.exec(heading[1] ?? '');
  const lines = body.split(/\r?\n/);
  const caretLines = lines
    .filter((l) => l.startsWith('^'))
    .map((l) =>
      l
        .slice(1)
        .replace(/[<=]\s*$/, '')
        .trim(),
    );
  const bylineAt = caretLines.findIndex((l) => /^By\s/i.test(l));
  const byline = bylineAt === -1 ? undefined : [caretLines[bylineAt].replace(/^By\s+/i, '')];
  const eds = caretLines.filter((l) => /^(?:Eds|EDITOR'S NOTE)\b/i.test(l));
  const story = lines.filter((l) => l.startsWith('\t')).map((l) => l.trim());
  const trailer = takeTrailer(
    story,
    /^([A-Z]+)-([A-Z]+)-(\d{2})-(\d{2})-(\d{2}) (\d{2})(\d{2})GMT<?$/,
    (m) => `20${m[5]}-${m[3]}-${m[4]}T${m[6]}:${m[7]}:00Z`,
  );
  while (story.length > 0 && (story[story.length - 1] === '' || /^_+$/.test(story[story.length - 1]))) story.pop();
  const caption = story.filter((l) => l !== '').join('\n\n');
  // "BC-BKN--Heat-Hawks 1stLd-Writethru": the slug is what follows the service and category codes.
  const keyword = keywordLine?.[3].split(/\s+/)[0];
  const slug = keyword?.replace(/^[A-Z]{2}-[A-Z]{2,4}--/i, '');
  const iptc: IptcFields = compact({
    caption: caption || undefined,
    headline: caretLines[1] ? oneLine(caretLines[1]) : undefined,
    byline,
    objectName: slug || undefined,
    urgency: keywordLine?.[1],
    category: keywordLine?.[2],
    transmissionReference: reference,
    specialInstructions: eds.length > 0 ? eds.join('\n') : undefined,
    ...storyDateline(caption),
  });
  return wireItem({ ...where, format: 'anpa1312' }, caption, iptc, trailer);
}

function wireItem(where: Where, caption: string, iptc: IptcFields, sent: string | undefined): FeedItem {
  const item: FeedItem = { source: where, captionRaw: caption, iptc, image: null };
  if (sent !== undefined) item.wire = { sent };
  return item;
}

/** Remove the send-time line from the end of the story and return it as an ISO date-time. */
function takeTrailer(
  story: string[],
  pattern: RegExp,
  toIso: (m: RegExpExecArray) => string | undefined,
): string | undefined {
  for (let i = story.length - 1; i >= 0 && i >= story.length - 6; i--) {
    const m = pattern.exec(story[i].trim());
    if (m) {
      story.splice(i);
      return toIso(m);
    }
  }
  return undefined;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function sentFrom7901(m: RegExpExecArray): string | undefined {
  const month = MONTHS.indexOf(m[4]);
  if (month === -1) return undefined;
  return `20${m[5]}-${String(month + 1).padStart(2, '0')}-${m[1]}T${m[2]}:${m[3]}:00Z`;
}

const STORY_DATELINE =
  /^(\p{Lu}[\p{L}\p{M} .'’-]{0,40}?)(?:,\s*(\p{L}[\p{L}\p{M} .'’-]{0,40}?))?\s+\([^()\n]{1,30}\)\s*[-_–—]\s/u;

/**
 * The place of a story's dateline, as sent: "Washington (dpa) - " gives the city, "BUENOS AIRES,
 * Argentina (AP) _ " the city and the country. The caption reader finds datelines with a date in
 * them; a wire story's has none.
 */
export function storyDateline(story: string): Pick<IptcFields, 'city' | 'country'> {
  const m = STORY_DATELINE.exec(story.trimStart());
  if (!m) return {};
  return m[2] === undefined ? { city: m[1].trim() } : { city: m[1].trim(), country: m[2].trim() };
}

/** dpa's header ends with the agency and a counter ("eca0124 3 i 93  dpa 1888"). */
function sourceOf(header: string | undefined): string | undefined {
  const m = /\s([A-Za-z]{2,10}) \d+\s*$/.exec(header ?? '');
  return m?.[1];
}
