import type { HttpContext } from '@adonisjs/core/http'
import Buyer from '#models/buyer'
import Publisher from '#models/publisher'

const PORTALS = { operator: 'operator', compliance: 'compliance', publisher: 'publisher', buyer: 'buyer' } as const

export default class PortalController {
  async show({ inertia, auth, principal }: HttpContext) {
    const user = auth.getUserOrFail()
    const summary = principal.isOperator
      ? [
          { label: 'Publishers', value: Number((await Publisher.query().count('* as total'))[0].$extras.total) },
          { label: 'Buyers', value: Number((await Buyer.query().count('* as total'))[0].$extras.total) },
        ]
      : []
    return inertia.render('portal', {
      user: { email: user.email, role: user.role },
      portal: PORTALS[principal.kind],
      summary,
    })
  }
}
