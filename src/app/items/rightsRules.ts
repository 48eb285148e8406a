import { loadRightsRules, type RightsRules } from '../../core/rights/rules';
import type { PipelineContext } from '../pipelineContext';

const rulesByPath = new Map<string, RightsRules>();

/**
 * The rights rules in force for this process (PHOTOWIRE_RIGHTS_RULES over the shipped ones), loaded
 * once. What is read with them (rights, release, notices) is src/app/items/itemRights.ts.
 */
export function rightsRulesOf(ctx: Pick<PipelineContext, 'config'>): RightsRules {
  const key = ctx.config.rightsRulesPath ?? '';
  let rules = rulesByPath.get(key);
  if (!rules) {
    rules = loadRightsRules(key || undefined);
    rulesByPath.set(key, rules);
  }
  return rules;
}
