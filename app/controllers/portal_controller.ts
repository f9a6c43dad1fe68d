import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import { publisherToJson } from '#transformers/publisher_transformer'
import PublisherService from '#services/catalogue/publisher_service'

const RECENT_PUBLISHERS = 100
// A user without a publisher or buyer finds nothing (404) rather than a malformed uuid (500).
const NO_ID = '00000000-0000-0000-0000-000000000000'

/** One home page per role; each shows only what that role may see (the services scope the look-ups). */
@inject()
export default class PortalController {
  constructor(protected publishers: PublisherService) {}

  async show({ inertia, principal }: HttpContext) {
    switch (principal.kind) {
      case 'operator':
        return inertia.render('portal/operator', await this.operatorView(principal))
      case 'compliance':
        return inertia.render('portal/compliance', {})
      case 'publisher': {
        const publisher = await this.publishers.findVisible(
          principal,
          principal.publisherId ?? NO_ID
        )
        return inertia.render('portal/publisher', { publisher: publisherRow(publisher) })
      }
      case 'buyer': {
        const buyer = await Buyer.findOrFail(principal.buyerId ?? NO_ID)
        return inertia.render('portal/buyer', {
          buyer: { id: buyer.id, name: buyer.name, status: buyer.status },
        })
      }
    }
  }

  protected async operatorView(principal: Principal) {
    const [publisherCount, buyerCount, recent] = await Promise.all([
      countOf(Publisher),
      countOf(Buyer),
      this.publishers.visibleTo(principal).orderBy('id', 'desc').limit(RECENT_PUBLISHERS),
    ])
    return {
      counts: { publishers: publisherCount, buyers: buyerCount },
      publishers: recent.map(publisherRow),
    }
  }
}

async function countOf(model: typeof Publisher | typeof Buyer) {
  const [row] = await model.query().count('* as total')
  return Number(row.$extras.total)
}

/** The API's publisher resource, with its label's name for people to read. */
function publisherRow(publisher: Publisher) {
  return { ...publisherToJson(publisher), label_name: publisher.label?.name ?? null }
}
