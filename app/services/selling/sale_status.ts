/** A lead's sale as its publisher hears it: decided or not, never to whom or at what price. */
export type SaleStatus = 'pending' | 'sold' | 'unsold'

/** The columns of `lead_facts` a sale's status reads. */
export type SaleFacts = { status: string; sale_status: string | null }

/**
 * `sale_status` once routing has tried the lead; before that its status says it: an accepted
 * or flagged lead waits for its sale, a rejected one is never offered, one sold before
 * sale_status existed reads as sold.
 */
export function saleStatusOf(fact: SaleFacts): SaleStatus {
  if (fact.sale_status === 'sold' || fact.sale_status === 'unsold') return fact.sale_status
  if (fact.sale_status === 'selling') return 'pending'
  if (fact.status === 'accepted' || fact.status === 'flagged' || fact.status === 'received') {
    return 'pending'
  }
  if (fact.status === 'rejected') return 'unsold'
  return 'sold'
}
