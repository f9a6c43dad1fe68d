import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'

export type OwnerChoice = { id: string; name: string }
export type OwnerDirectory = { publishers: OwnerChoice[]; buyers: OwnerChoice[] }

/**
 * Whom the operator can give a key or a webhook endpoint, by name, for its
 * forms and for the owner column of its lists. Everyone else owns only what
 * it is, so it gets no choice (null) and learns no other owner's name.
 */
export async function ownerDirectory(principal: Principal): Promise<OwnerDirectory | null> {
  if (!principal.isOperator) return null
  const [publishers, buyers] = await Promise.all([
    Publisher.query().select('id', 'name').orderBy('name'),
    Buyer.query().select('id', 'name').orderBy('name'),
  ])
  const choice = (row: { id: string; name: string }) => ({ id: row.id, name: row.name })
  return { publishers: publishers.map(choice), buyers: buyers.map(choice) }
}

/** The name of one resource's owner, for the operator's view of it; null for anyone else. */
export async function ownerNameOf(
  principal: Principal,
  owned: { publisherId: string | null; buyerId: string | null }
) {
  if (!principal.isOperator) return null
  const owner = owned.publisherId
    ? await Publisher.find(owned.publisherId)
    : owned.buyerId
      ? await Buyer.find(owned.buyerId)
      : null
  return owner?.name ?? null
}
