import type RoutingRule from '#models/routing_rule'
import type RoutingRuleService from '#services/routing/routing_rule_service'
import type { Page } from '#services/sql/cursor_pagination'
import { capUsage } from '#services/routing/caps'
import { criteriaInWords, scheduleInWords } from '#services/routing/rule_words'
import { ruleReferences } from '#services/routing/rule_references'
import { routingRuleToJson } from '#transformers/routing_rule_transformer'

/**
 * A page of routing rules as the portal lists them, on the routing-rules page and on a
 * buyer's: the API's JSON of each rule, its caps' usage in their current day and month,
 * its schedule and criteria in words, and the names of the buyers, labels and publishers
 * it names.
 */
export async function routingRuleRows(rules: RoutingRuleService, page: Page<RoutingRule>) {
  const [slugs, usage, references] = await Promise.all([
    rules.labelSlugsFor(page.data),
    capUsage(page.data),
    ruleReferences(page.data),
  ])
  return {
    rules: page.data.map((rule) => ({
      ...routingRuleToJson(rule, slugs),
      usage: usage.get(rule.id) ?? {},
      schedule_text: scheduleInWords(rule.schedule),
      criteria_text: criteriaInWords(rule.criteria),
    })),
    references,
    next_cursor: page.nextCursor,
  }
}
