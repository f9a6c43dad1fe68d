import vine from '@vinejs/vine'

export type RuleAction = 'reject' | 'flag'
export type AudienceOperator = 'between' | 'in' | 'not_in' | 'eq' | 'gte' | 'lte' | 'prefix'
export type AudienceCriterion = { field: string; op: AudienceOperator; value: unknown; action?: RuleAction }

export type QualityRules = {
  required_fields?: string[]
  postal_code?: { required: boolean; action: RuleAction }
  phone?: { action: RuleAction }
  email?: { action: RuleAction }
  consent?: { required: true; action: RuleAction; max_age_days?: number }
  target_audience?: AudienceCriterion[]
  duplicates?: { window_days: number; keys: string[]; action: RuleAction }
}

export const qualityRulesValidator = vine.create(vine.object({}))
