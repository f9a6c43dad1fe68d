import type RoutingRule from '#models/routing_rule'
import type RoutingRuleService from '#services/routing/routing_rule_service'
import type { Page } from '#services/sql/cursor_pagination'
import { capUsage } from '#services/routing/caps'
import { ruleReferences } from '#services/routing/rule_references'
import RoutingRuleTransformer from '#transformers/routing_rule_transformer'
import RuleReferencesTransformer from '#transformers/rule_references_transformer'

/**
 * A page of routing rules as the portal lists them, on the routing-rules page and on a
 * buyer's: the API's JSON of each rule, its caps' usage in their current day and month,
 * its schedule and criteria in words, and the names of the buyers, labels and publishers
 * it names. Page props: the page resolves the transformers as it renders.
 */
export async function routingRuleRows(rules: RoutingRuleService, page: Page<RoutingRule>) {
  const [slugs, usage, references] = await Promise.all([
    rules.labelSlugsFor(page.data),
    capUsage(page.data),
    ruleReferences(page.data),
  ])
  return {
    rules: RoutingRuleTransformer.transform(page.data, slugs, usage).useVariant('withUsage'),
    references: RuleReferencesTransformer.transform(references),
    next_cursor: page.nextCursor,
  }
}
