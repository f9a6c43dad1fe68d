import type Buyer from '#models/buyer'
import type BuyerFundsService from '#services/money/buyer_funds_service'
import BuyerFundsTransformer from '#transformers/buyer_funds_transformer'

/** A buyer's funds and newest top-ups, as the buyer's page and the operator's show them. */
export async function fundsOf(funds: BuyerFundsService, buyer: Buyer) {
  const [view, topUps] = await Promise.all([funds.read(buyer), funds.topUps(buyer)])
  return BuyerFundsTransformer.transform({ ...view, top_ups: topUps })
}
