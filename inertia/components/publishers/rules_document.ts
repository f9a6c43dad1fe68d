import type { Data } from '@generated/data'
import type { CriterionInput } from '~/components/catalogue/criteria'

/** What a quality rule does to a lead that fails it. */
export type RuleAction = NonNullable<Data.QualityRules['phone']>['action']

/**
 * The rules document the editor builds and sends (saved, or tried on a sample lead): the
 * server's own shape, with the target audience's criteria as the form sends them.
 */
export type RulesDocument = Omit<Data.QualityRules, 'target_audience'> & {
  target_audience?: (CriterionInput & { action: RuleAction })[]
}
