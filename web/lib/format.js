// Formatting for the desk: numbers, times, progress, credits. Pure: no DOM, no fetch.

const numberFormat = new Intl.NumberFormat('en-GB');

/** 1234 -> "1,234". */
export function formatCount(n) {
  return numberFormat.format(n ?? 0);
}

/** "1 item", "3 items". */
export function plural(n, one, many = `${one}s`) {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** 1900 -> "1.9 s", 125000 -> "2 min 05 s", 3720000 -> "1 h 02 min". */
export function formatDuration(ms) {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

function startOfDay(d) {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** "Today", "Yesterday", else "Monday 12 November" (local time). */
export function dayLabel(iso, now = new Date()) {
  const d = new Date(iso);
  const days = Math.round((startOfDay(now) - startOfDay(d)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return d.toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long' });
}

/** "21:45" (24-hour, local). */
export function clockTime(iso) {
  return new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
}

/** Group items that carry a date under day headings, newest day first, keeping their order. */
export function groupByDay(items, dateOf, now = new Date()) {
  const out = [];
  for (const item of items) {
    const label = dayLabel(dateOf(item), now);
    const last = out[out.length - 1];
    if (last && last.label === label) last.items.push(item);
    else out.push({ label, items: [item] });
  }
  return out;
}

/** A batch's progress: items ended (ok or failed) out of expected. */
export function progressOf(batch) {
  const total = batch.expected ?? 0;
  const done = Math.min(total, (batch.ok ?? 0) + (batch.failed ?? 0));
  const pct = total === 0 ? (batch.state === 'done' ? 100 : 0) : Math.floor((done / total) * 100);
  return { done, total, pct, label: `${formatCount(done)} of ${formatCount(total)} items` };
}

/** The last part of a feed path: what a person recognises. An uploaded folder is named by a digest, so it is called what it is. */
export function feedName(feedPath) {
  const parts = String(feedPath ?? '')
    .split(/[\\/]/)
    .filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  if (parts[parts.length - 2] === 'uploads' && /^[0-9a-f]{16}$/.test(last))
    return `Uploaded photos ${last.slice(0, 6)}`;
  return last;
}

/** The normalized credit line, or what can be said without one. */
export function creditLine(record) {
  const c = record.credit;
  if (c.line) return c.line;
  const who = c.creators.join(', ');
  const parts = [who, c.agency].filter(Boolean);
  return parts.length ? parts.join(' / ') : 'No credit';
}

/** Every raw credit input as received, labelled, for the hover text and the details. */
export function rawCreditParts(record) {
  const r = record.credit.raw;
  const parts = [
    ['Caption credit', r.captionTail],
    ['By-line', r.byline.length ? r.byline.join('; ') : null],
    ['Credit', r.creditLine],
    ['Source', r.source],
    ['Copyright', r.copyright],
  ];
  return parts
    .filter(([, v]) => v !== null && v !== undefined && String(v).trim() !== '')
    .map(([label, value]) => ({ label, value }));
}

/** One line of the raw credit, e.g. "Raw: By-line: LEON NEAL · Credit: AFP/Getty Images". */
export function rawCreditText(record) {
  const parts = rawCreditParts(record);
  return parts.length
    ? `Raw credit: ${parts.map((p) => `${p.label}: ${p.value}`).join(' · ')}`
    : 'No raw credit was sent';
}

/** The URL of a rendition of a record (thumb or preview), or null for caption-only and failed items. */
export function renditionUrl(record, name = 'thumb') {
  const r = (record.renditions ?? []).find((x) => x.name === name);
  return r ? `/api/${r.path.replace(/\\/g, '/').replace(/^\/+/, '')}` : null;
}

const ERROR_LABELS = {
  FEED_UNREADABLE: 'Feed unreadable',
  FEED_UNKNOWN_FORMAT: 'Unknown feed format',
  FEED_MALFORMED: 'Malformed feed entry',
  FEED_TOO_LARGE: 'Feed too large',
  XML_ENTITY_REFUSED: 'XML entities refused',
  ITEM_DUPLICATE_ID: 'Duplicate item id',
  ITEM_INVALID: 'Invalid item',
  PATH_OUTSIDE_FEED: 'Image outside the feed folder',
  IMAGE_NOT_FOUND: 'Image not found',
  IMAGE_UNSUPPORTED: 'Not a supported image',
  IMAGE_CORRUPT: 'Image corrupt',
  IMAGE_TOO_LARGE: 'Image too large',
  STORAGE_FAILED: 'Could not store',
  INTERNAL: 'Internal error',
};

/** "IMAGE_CORRUPT" -> "Image corrupt"; unknown codes are shown as they are. */
export function errorLabel(code) {
  return ERROR_LABELS[code] ?? code;
}

/** "#07" or "#07 of 41" for gallery items, else the 1-based feed position. */
export function itemNumber(record) {
  const s = record.source;
  if (s.counter) return `#${String(s.counter).padStart(2, '0')}`;
  return `#${s.position + 1}`;
}

/** "batch-0012" -> { batchId: "batch", number: 12 }; null for what is not an item id. */
export function parseItemId(itemId) {
  const m = /^(.+)-(\d{4,})$/.exec(String(itemId ?? ''));
  return m ? { batchId: m[1], number: Number(m[2]) } : null;
}

/** "resend of #12 (batch afp-night-3f2a…)" when the record is a probable resend of an earlier item; null otherwise. */
export function resendLabel(record) {
  if (!record.probableResend) return null;
  // probableResend compares the photo with its caption cluster's canonical item (photoVersions.isProbableResend).
  const prev = parseItemId(record.cluster?.canonicalId ?? record.photo?.previousItemId);
  if (!prev) return 'resend of an earlier photo';
  return prev.batchId === record.batchId
    ? `resend of #${prev.number}`
    : `resend of #${prev.number} (batch ${prev.batchId})`;
}

/** The batch of an earlier night whose cluster this caption joined; null when the cluster began in this batch. */
export function earlierClusterBatch(record) {
  const canonical = parseItemId(record.cluster?.canonicalId);
  return canonical && canonical.batchId !== record.batchId ? canonical.batchId : null;
}

const RESTRICTION_LABELS = {
  'editorial-only': 'Editorial use only',
  'no-sales': 'No sales',
  'no-archive': 'No archives',
  'one-time-use': 'One-time use',
  'mandatory-credit': 'Mandatory credit',
  'no-magazines': 'No magazines',
  'no-books': 'No books',
  'no-tv': 'No TV',
  'no-internet': 'No internet',
  handout: 'Handout',
  pool: 'Pool',
  'third-party-supplied': 'Third-party supplied',
  'model-release-missing': 'No model release',
  'no-commercial': 'No commercial use',
  'no-third-party-sales': 'No third-party sales',
  'time-limited': 'Time-limited use',
  'no-newspapers': 'No newspapers',
  'no-social-media': 'No social media',
  'no-tabloids': 'No tabloids',
  'property-release-missing': 'No property release',
  'no-alteration': 'No alteration',
  'news-context-only': 'News context only',
  'no-betting-games': 'No betting or games',
  'no-video-emulation': 'No video emulation',
  'restrictions-apply': 'Restrictions apply',
  'permission-required': 'Permission required',
};

/** Advisories (docs/RIGHTS.md): not restrictions, but a person must see them before publishing. */
const ADVISORY_LABELS = {
  'file-photo': 'File photo',
  'photo-illustration': 'Photo illustration',
  'best-quality-available': 'Best quality available',
  unverified: 'Unverified',
  'distributed-as-received': 'Distributed as received',
  'graphic-content': 'Graphic content',
  processed: 'Processed',
  'social-media-source': 'From social media',
};

/**
 * What a person must check before publishing, as short labels: usage restrictions, markets out
 * and markets it is limited to, advisories (file photo, photo illustration, unverified ...) from the
 * rights record, then the credit's flags (handout, pool, mandatory credit).
 */
export function restrictionLabels(record) {
  const out = [];
  const seen = new Set();
  const add = (label) => {
    const key = foldLabel(label);
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push(label);
  };
  const markets = { OUT: new Set(), ONLY: new Set() };
  const addMarket = (kind, m) => {
    const name = typeof m === 'string' ? m : (m.name ?? m.text ?? '');
    markets[kind].add(foldLabel(name));
    add(`${kind}: ${name}`);
  };
  const rights = record.rights;
  for (const r of rights?.restrictions ?? []) add(RESTRICTION_LABELS[r] ?? r);
  for (const m of rights?.outMarkets ?? []) addMarket('OUT', m);
  for (const m of rights?.onlyMarkets ?? []) addMarket('ONLY', m);
  for (const a of rights?.advisories ?? []) add(ADVISORY_LABELS[a] ?? a);
  const f = record.credit?.flags;
  if (f) {
    if (f.mandatory) add('Mandatory credit');
    if (f.handout) add('Handout');
    if (f.pool) add('Pool');
    for (const r of f.restrictions ?? []) {
      // The credit reader keeps a market restriction as the wire wrote it ("NETHERLANDS OUT"); the
      // rights record has the same one as a market ("OUT: Netherlands"). One chip, in one form.
      const market = marketRestriction(r);
      if (!market) add(r);
      else if (!market.names.every((n) => markets[market.kind].has(foldLabel(n))))
        add(`${market.kind}: ${market.names.map(titleCase).join(', ')}`);
    }
  }
  return out;
}

/** A label compared without case, punctuation or spacing: "No Sales." is "NO SALES". */
function foldLabel(label) {
  return String(label ?? '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** "Netherlands OUT", "OUT: Netherlands, Belgium", "FRANCE AND BELGIUM OUT", "UK ONLY": the kind and each market; null for anything else. */
function marketRestriction(text) {
  const t = String(text ?? '').trim();
  const m = /^(?:(OUT|ONLY)\s*:?\s+(.+)|(.+?)\s+(OUT|ONLY))$/i.exec(t);
  if (!m) return null;
  const kind = (m[1] ?? m[4]).toUpperCase();
  const names = (m[2] ?? m[3])
    .split(/\s*(?:,|&|\/|\band\b)\s*/i)
    .map((n) => n.trim())
    .filter((n) => n !== '');
  return names.length ? { kind, names } : null;
}

/** "NETHERLANDS" -> "Netherlands"; a name already in mixed case, or short like "UK", is kept. */
function titleCase(name) {
  if (name !== name.toUpperCase() || name.length <= 3) return name;
  return name.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, sep, c) => sep + c.toUpperCase());
}

/** A thumbnail smaller than the card is shown at its own size, never blown up into a blur. */
export function thumbSize(record, cardWidth = 400) {
  const r = (record.renditions ?? []).find((x) => x.name === 'thumb');
  if (!r) return null;
  return { width: r.width, height: r.height, small: r.width < cardWidth * 0.75 };
}
