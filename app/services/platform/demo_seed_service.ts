import { inject } from '@adonisjs/core'
import Buyer from '#models/buyer'
import Label from '#models/label'
import Publisher from '#models/publisher'
import User from '#models/user'
import OperatorService, { SYSTEM_OPERATOR } from '#services/access/operator_service'
import PublisherService from '#services/catalogue/publisher_service'

export const DEMO_LOGIN = { email: 'operator@leadgate.local', password: 'leadgate-demo-password' }

/**
 * A small world to click through: one label, two publishers, one buyer and an
 * operator login. Each piece is created only when missing.
 */
@inject()
export default class DemoSeedService {
  constructor(
    protected operators: OperatorService,
    protected publishers: PublisherService
  ) {}

  async run() {
    const label =
      (await Label.findBy('slug', 'demo')) ??
      (await Label.create({
        slug: 'demo',
        name: 'Demo Energy',
        branding: { primary_color: '#0f766e' },
      }))

    // Acme Media is live and delivers by API; Bright Leads has just been invited.
    for (const [slug, name, live] of [
      ['acme-media', 'Acme Media', true],
      ['bright-leads', 'Bright Leads', false],
    ] as const) {
      if (await Publisher.findBy('slug', slug)) continue
      const publisher = await this.publishers.create(SYSTEM_OPERATOR, {
        slug,
        name,
        contact_email: `partners@${slug}.example`,
        label: label.slug,
        country: 'NL',
      })
      if (live) {
        await this.publishers.update(SYSTEM_OPERATOR, publisher, {
          status: 'live',
          delivery_methods: ['api', 'form'],
        })
      }
    }

    if (!(await Buyer.query().where('name', 'Northwind Insurance').first())) {
      await Buyer.create({
        name: 'Northwind Insurance',
        contactEmail: 'leads@northwind.example',
        status: 'active',
      })
    }

    const existing = await User.findBy('email', DEMO_LOGIN.email)
    if (existing) return { login: DEMO_LOGIN, apiKey: null }
    const { apiKey } = await this.operators.create(DEMO_LOGIN)
    return { login: DEMO_LOGIN, apiKey }
  }
}
