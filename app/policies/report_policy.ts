import { BasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import { changeAllowed, deny } from '#policies/operator_catalogue'

/** Who reads figures (docs/reports.md); the report service narrows each to its own rows. */
const READERS = new Set(['operator', 'publisher', 'buyer', 'label_manager'])

/**
 * Reports: the operator, a publisher (its own), a buyer (its purchases) and a label manager
 * (its label's publishers) read KPIs and time series with a read permission.
 */
export default class ReportPolicy extends BasePolicy {
  view(principal: Principal) {
    if (!READERS.has(principal.kind)) {
      return deny(
        'forbidden',
        'Reports are for the operator, publishers, buyers and label managers.'
      )
    }
    return changeAllowed(principal, false)
  }
}
