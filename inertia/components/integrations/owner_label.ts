import type { Data } from '@generated/data'

/** "Publisher Acme" for the operator's owner columns; the platform's own is "Operator". */
export function ownerLabel(
  row: Pick<Data.WebhookEndpoint, 'owner' | 'publisher_id' | 'buyer_id'>,
  owners: Data.OwnerDirectory | null
) {
  if (row.owner !== 'publisher' && row.owner !== 'buyer') {
    return row.owner === 'operator' ? 'Operator' : 'Compliance (auditor)'
  }
  const list = row.owner === 'publisher' ? owners?.publishers : owners?.buyers
  const id = row.owner === 'publisher' ? row.publisher_id : row.buyer_id
  const name = list?.find((owner) => owner.id === id)?.name
  return `${row.owner === 'publisher' ? 'Publisher' : 'Buyer'} ${name ?? id ?? ''}`.trim()
}
