import type { Notice } from '../../schemas/notice';
import type { Release } from '../../schemas/release';
import type { Rights, RightsSource } from '../../schemas/rights';
import { readNotice } from '../kills/readNotice';
import { readRelease } from '../release/readRelease';
import type { ItemRightsInput } from './input';
import { readRights } from './readRights';
import { loadRightsRules, type RightsRules } from './rules';

export interface DryRunOptions {
  /** A rules file over the shipped rules (as PHOTOWIRE_RIGHTS_RULES), or rules already loaded. */
  rules?: RightsRules | string;
  /** Where the text is read from (default: IPTC Special Instructions). */
  source?: RightsSource;
  referenceTime?: string;
  agency?: string;
}

export interface DryRun {
  rights: Pick<
    Rights,
    'restrictions' | 'outMarkets' | 'onlyMarkets' | 'advisories' | 'matched' | 'unread' | 'confidence' | 'rulesVersion'
  >;
  release: Pick<Release, 'embargoUntil' | 'expires' | 'confidence'>;
  notice: Notice | null;
}

/**
 * What photowire reads from one line of instructions, with the shipped rules or an operator's
 * file: the operator's way to try a rules change before it is deployed (docs/RIGHTS.md; the
 * `photowire rights` command of the wiring wave prints this for each line it is given).
 */
export function dryRun(text: string, opts: DryRunOptions = {}): DryRun {
  const rules = typeof opts.rules === 'string' || opts.rules === undefined ? loadRightsRules(opts.rules) : opts.rules;
  const input: ItemRightsInput = {
    texts: [{ source: opts.source ?? 'iptc:specialInstructions', text }],
    referenceTime: opts.referenceTime,
    agency: opts.agency,
  };
  const { restrictions, outMarkets, onlyMarkets, advisories, matched, unread, confidence, rulesVersion } = readRights(
    input,
    rules,
  );
  const { embargoUntil, expires, confidence: releaseConfidence } = readRelease(input, rules);
  return {
    rights: { restrictions, outMarkets, onlyMarkets, advisories, matched, unread, confidence, rulesVersion },
    release: { embargoUntil, expires, confidence: releaseConfidence },
    notice: readNotice(input, rules),
  };
}
