import type Principal from '#auth/principal'
import BasePolicy from '#policies/base_policy'

/**
 * Reports: the operator, a publisher (its own), a buyer (its purchases) and a label manager
 * (its label's publishers) read KPIs and time series with a read permission; the report
 * service narrows each to its own rows (docs/reports.md).
 */
export default class ReportPolicy extends BasePolicy {
  view(principal: Principal) {
    return (
      this.onlyFor(
        principal,
        ['operator', 'publisher', 'buyer', 'label_manager'],
        'forbidden',
        'Reports are for the operator, publishers, buyers and label managers.'
      ) ?? this.changeAllowed(principal, false)
    )
  }
}
