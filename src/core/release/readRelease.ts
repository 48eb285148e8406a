import { RIGHTS_SOURCES } from '../../schemas/rights';
import type { Release, ReleaseSource, ReleaseState, ReleaseTime } from '../../schemas/release';
import { compileRightsRules, type CompiledRightsRules, type ReleaseValue } from '../rights/compileRules';
import type { ItemRightsInput } from '../rights/input';
import { selectHits, type Hit } from '../rights/phraseMatcher';
import { defaultRightsRules, type RightsRules } from '../rights/rules';
import { tokenize } from '../rights/tokens';
import { parseStructuredDateTime, readWireDate, WINDOW } from './wireDate';
import { fixedZone, zoneFromRule, zonedToEpoch, type Zone } from './zones';

type DefaultZone = { zone: Zone; why: string } | null;

const iso = (ms: number) => new Date(ms).toISOString();
const MAX_TEXT = 300;

function clip(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT - 1)}…` : t;
}

function defaultZoneOf(c: CompiledRightsRules, input: ItemRightsInput): DefaultZone {
  if (input.defaultZone) {
    const z = zoneFromRule(input.defaultZone);
    if (z) return { zone: z, why: 'the configured default' };
  }
  if (input.agency) {
    const z = c.agencyZones.get(input.agency);
    if (z) return { zone: z, why: `agency ${input.agency}` };
  }
  return null;
}

/** A structured field (IIM, NewsML-G2, NITF): an instant, or null `at` when it cannot be read. */
function structured(
  type: 'embargo' | 'expiry',
  source: ReleaseSource,
  rule: string,
  text: string,
  date: string,
  time: string | undefined,
  dz: DefaultZone,
): ReleaseTime {
  const parts = parseStructuredDateTime(date, time);
  if (!parts) {
    return {
      type,
      at: null,
      text,
      source,
      rule,
      zone: null,
      assumed: [type === 'embargo' ? 'could not be read: held until a person releases it' : 'could not be read'],
    };
  }
  const assumed: string[] = [];
  let zone: Zone;
  if (parts.offset !== null) zone = fixedZone(parts.offset);
  else if (parts.h === null) zone = dz?.zone ?? fixedZone(0);
  else if (dz) {
    zone = dz.zone;
    assumed.push(`no time zone written: ${zone.name} (${dz.why})`);
  } else {
    zone = fixedZone(0);
    assumed.push('no time zone written: UTC');
  }
  let h = parts.h ?? 0;
  let addDays = 0;
  if (parts.h === null) {
    // IIM: the release date is the earliest day of use; the expiration date the latest.
    if (type === 'expiry') addDays = 1;
    assumed.push(
      `no time written: the ${type === 'expiry' ? 'end' : 'start'} of that day${parts.offset === null ? ` in ${zone.name}` : ''}`,
    );
  } else if (h === 24) {
    h = 0;
    addDays = 1;
  }
  const at = zonedToEpoch(parts.y, parts.m, parts.d + addDays, h, parts.mi, parts.s, zone);
  return {
    type,
    at: iso(at),
    text,
    source,
    rule,
    zone: parts.offset !== null || parts.h !== null ? zone.name : null,
    assumed,
  };
}

function held(source: ReleaseSource, rule: string, text: string, assumed: string[] = []): ReleaseTime {
  return { type: 'embargo', at: null, text, source, rule, zone: null, assumed };
}

/** Embargo, hold, expiry and usage-window notes in one text. */
function fromText(
  c: CompiledRightsRules,
  source: keyof typeof RIGHTS_SOURCES,
  text: string,
  reference: number | null,
  dz: DefaultZone,
): ReleaseTime[] {
  const kind = RIGHTS_SOURCES[source];
  if (kind !== 'instructions' && kind !== 'terms' && kind !== 'caption') return [];
  const tokens = tokenize(text);
  const hits = selectHits(c.release.findAll(tokens, kind));
  const bySpan = new Map<string, Hit<ReleaseValue>[]>();
  for (const h of hits) {
    const key = `${h.from}:${h.to}`;
    bySpan.set(key, [...(bySpan.get(key) ?? []), h]);
  }
  const out: ReleaseTime[] = [];
  for (const group of bySpan.values()) {
    const { from, to } = group[0];
    const start = tokens[from].start;
    const end = tokens[to - 1].end;
    const types = new Set(group.map((h) => h.pattern.value.type));
    const window = text.slice(end, end + WINDOW);
    const rule = group[0].pattern.phrase;
    if (types.has('usageWindow')) {
      const slot = group.find((h) => h.pattern.value.type === 'usageWindow')!.slots.find((s) => s.slot === 'duration');
      const ms = slot ? (slot.values[0] as number) : null;
      const words = clip(text.slice(start, end));
      if (ms === null) continue;
      out.push(
        reference === null
          ? {
              type: 'expiry',
              at: null,
              text: words,
              source,
              rule,
              zone: null,
              assumed: ['no transmission time to count from'],
            }
          : {
              type: 'expiry',
              at: iso(reference + ms),
              text: words,
              source,
              rule,
              zone: null,
              assumed: ["counted from the item's time"],
            },
      );
      continue;
    }
    if (types.has('embargo') || types.has('expiry')) {
      const type = types.has('embargo') ? 'embargo' : 'expiry';
      const d = readWireDate(window, {
        zones: c.zones,
        reference,
        defaultZone: dz,
        dateOnlyIsEndOfDay: type === 'expiry',
        prefer: type === 'embargo' ? 'later' : 'earlier',
      });
      if (d) {
        const words = clip(text.slice(start, end + d.length));
        out.push({
          type,
          at: d.at === null ? null : iso(d.at),
          text: words,
          source,
          rule,
          zone: d.zone,
          assumed: d.assumed,
        });
        continue;
      }
    }
    if (types.has('hold')) {
      const h = group.find((x) => x.pattern.value.type === 'hold')!;
      out.push(held(source, h.pattern.phrase, clip(text.slice(start, end))));
    } else if (types.has('embargo') && kind === 'instructions') {
      out.push(
        held(source, rule, clip(text.slice(start, end + Math.min(window.length, 60))), [
          'no readable time after the notice: held until a person releases it',
        ]),
      );
    }
  }
  return out;
}

/**
 * When an item may be published and until when: embargoes, holds and expiry from IPTC, NewsML-G2,
 * NITF and notes in its texts, all as UTC instants. Pure.
 */
export function readRelease(input: ItemRightsInput, rules: RightsRules = defaultRightsRules()): Release {
  const c = compileRightsRules(rules);
  const dz = defaultZoneOf(c, input);
  const refMs = input.referenceTime ? Date.parse(input.referenceTime) : NaN;
  const reference = Number.isFinite(refMs) ? refMs : null;
  const found: ReleaseTime[] = [];
  const raw: Release['raw'] = [];

  const ip = input.iptc ?? {};
  if (ip.releaseDate !== undefined || ip.releaseTime !== undefined) {
    const text = [ip.releaseDate, ip.releaseTime].filter((x) => x !== undefined).join(' ');
    raw.push({ source: 'iptc:releaseDate', text });
    found.push(structured('embargo', 'iptc:releaseDate', 'iptc', text, ip.releaseDate ?? '', ip.releaseTime, dz));
  }
  if (ip.expirationDate !== undefined || ip.expirationTime !== undefined) {
    const text = [ip.expirationDate, ip.expirationTime].filter((x) => x !== undefined).join(' ');
    raw.push({ source: 'iptc:expirationDate', text });
    found.push(
      structured('expiry', 'iptc:expirationDate', 'iptc', text, ip.expirationDate ?? '', ip.expirationTime, dz),
    );
  }

  const g2 = input.newsml ?? {};
  if (g2.embargoed !== undefined) {
    raw.push({ source: 'newsml:embargoed', text: g2.embargoed });
    found.push(
      g2.embargoed.trim() === ''
        ? held('newsml:embargoed', 'newsml:embargoed', '', ['embargoed with no time: until further notice'])
        : structured(
            'embargo',
            'newsml:embargoed',
            'newsml:embargoed',
            g2.embargoed,
            g2.embargoed.trim(),
            undefined,
            dz,
          ),
    );
  }
  if (g2.pubStatus !== undefined) {
    raw.push({ source: 'newsml:pubStatus', text: g2.pubStatus });
    if (/^(?:stat:)?withheld$/i.test(g2.pubStatus.trim()))
      found.push(held('newsml:pubStatus', 'newsml:stat:withheld', g2.pubStatus));
  }

  const nitf = input.nitf ?? {};
  if (nitf.dateRelease !== undefined) {
    raw.push({ source: 'nitf:date.release', text: nitf.dateRelease });
    found.push(
      structured(
        'embargo',
        'nitf:date.release',
        'nitf:date.release',
        nitf.dateRelease,
        nitf.dateRelease,
        undefined,
        dz,
      ),
    );
  }
  if (nitf.dateExpire !== undefined) {
    raw.push({ source: 'nitf:date.expire', text: nitf.dateExpire });
    found.push(
      structured('expiry', 'nitf:date.expire', 'nitf:date.expire', nitf.dateExpire, nitf.dateExpire, undefined, dz),
    );
  }
  if (nitf.managementStatus !== undefined) {
    raw.push({ source: 'nitf:management-status', text: nitf.managementStatus });
    const st = nitf.managementStatus.trim().toLowerCase();
    if (st === 'withheld' || (st === 'embargoed' && nitf.dateRelease === undefined)) {
      found.push(
        held('nitf:management-status', 'nitf:management-status', nitf.managementStatus, [
          `${st} with no release date: until further notice`,
        ]),
      );
    }
  }

  for (const t of input.texts) {
    raw.push({ source: t.source, text: t.text });
    found.push(...fromText(c, t.source, t.text, reference, dz));
  }

  const embargoes = found.filter((f) => f.type === 'embargo');
  const expiries = found.filter((f) => f.type === 'expiry');
  const embargoUntil =
    embargoes.find((e) => e.at === null) ??
    embargoes.reduce<ReleaseTime | null>((best, e) => (!best || e.at! > best.at! ? e : best), null);
  const dated = expiries.filter((e) => e.at !== null);
  const expires = dated.length ? dated.reduce((best, e) => (e.at! < best.at! ? e : best)) : (expiries[0] ?? null);
  const distinct = (xs: ReleaseTime[]) => new Set(xs.map((x) => x.at)).size > 1;
  const low = found.some((f) => f.assumed.length > 0) || distinct(embargoes) || distinct(expiries);

  return { embargoUntil, expires, found, raw, confidence: low ? 'low' : 'high', rulesVersion: rules.version };
}

/**
 * A photo's state at `now`: embargoed (with the time left, or until further notice), available
 * (with its expiry), or expired. Pure: nothing is stored, so an embargo ends on its own.
 */
export function releaseState(
  release: Pick<Release, 'embargoUntil' | 'expires'>,
  now: number | Date | string,
): ReleaseState {
  const t = typeof now === 'number' ? now : typeof now === 'string' ? Date.parse(now) : now.getTime();
  const e = release.embargoUntil;
  if (e) {
    if (e.at === null) return { state: 'embargoed', until: null, msLeft: null };
    const until = Date.parse(e.at);
    if (t < until) return { state: 'embargoed', until: e.at, msLeft: until - t };
  }
  const x = release.expires?.at ? Date.parse(release.expires.at) : null;
  if (x !== null && t >= x) return { state: 'expired', since: release.expires!.at! };
  return { state: 'available', expires: release.expires?.at ?? null, msLeft: x === null ? null : x - t };
}
