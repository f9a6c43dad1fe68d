import { errors } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'
import { leadCounts } from '#services/leads/lead_counts'

// A user without a publisher or buyer finds nothing (404) rather than a malformed uuid (500).
const NO_ID = '00000000-0000-0000-0000-000000000000'

/** Each role's home page; each shows only what that role may see (the services scope the look-ups). */
export default class PortalController {
  /** /portal: every role has its own portal. */
  async show({ principal, response }: HttpContext) {
    return response.redirect(`/${principal.kind}`)
  }

  async home({ inertia, principal }: HttpContext) {
    switch (principal.kind) {
      case 'operator':
        return inertia.render('operator/overview', await this.operatorOverview())
      // The publisher's and compliance homes have their own controllers (app/controllers/portal/).
      case 'compliance':
      case 'publisher':
        throw new errors.E_ROUTE_NOT_FOUND(['GET', `/${principal.kind}`])
      case 'buyer': {
        const buyer = await Buyer.findOrFail(principal.buyerId ?? NO_ID)
        return inertia.render('portal/buyer', {
          buyer: { id: buyer.id, name: buyer.name, status: buyer.status },
        })
      }
    }
  }

  protected async operatorOverview() {
    const [publishers, buyers, leads] = await Promise.all([
      Publisher.query().select('status').count('* as total').groupBy('status'),
      Buyer.query().count('* as total'),
      leadCounts(),
    ])
    const byStatus = Object.fromEntries(
      publishers.map((row) => [row.status, Number(row.$extras.total)])
    )
    return {
      publishers: {
        total: Object.values(byStatus).reduce((sum, count) => sum + count, 0),
        live: byStatus.live ?? 0,
        onboarding: byStatus.invited ?? 0,
      },
      buyers: Number(buyers[0].$extras.total),
      leads,
    }
  }
}
