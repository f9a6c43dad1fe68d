import routingConfig from '#config/routing'
import { WEEKDAYS } from '#services/routing/schedule'
import { AUDIENCE_OPERATORS, LEAD_FIELD_PATHS } from '#services/quality/quality_rules'

/** The words a rule form speaks, from the engine's own vocabulary: the operator's and a buyer's. */
export const RULE_VOCABULARY = {
  weekdays: [...WEEKDAYS],
  operators: [...AUDIENCE_OPERATORS],
  fields: [...LEAD_FIELD_PATHS],
  default_timezone: routingConfig.defaultTimezone,
}
