import app from '@adonisjs/core/services/app'
import { BaseSeeder } from '@adonisjs/lucid/seeders'
import Buyer from '#models/buyer'
import Label from '#models/label'
import Publisher from '#models/publisher'
import User from '#models/user'
import OperatorService, { SYSTEM_OPERATOR } from '#services/access/operator_service'
import UserService, { type CreateUserInput } from '#services/access/user_service'
import OnboardingService from '#services/catalogue/onboarding_service'
import PublisherService from '#services/catalogue/publisher_service'

/** One password for every demo login: a world to click through, never a production one. */
export const DEMO_PASSWORD = 'leadgate-demo-password'
export const DEMO_LOGIN = { email: 'operator@leadgate.local', password: DEMO_PASSWORD }

export type DemoLogin = { portal: string; email: string; password: string }
export type DemoWorld = { login: typeof DEMO_LOGIN; logins: DemoLogin[]; apiKey: string | null }

/**
 * A small world to click through: one label, two publishers, one buyer, and
 * a login for each portal (operator, publisher, buyer, compliance). Each
 * piece is created only when missing, through the services a real operator's
 * actions go through. `npm run up` seeds it (`app:prepare`, which prints the
 * logins); `node ace db:seed` does too, outside production.
 */
export default class DemoSeeder extends BaseSeeder {
  static environment = ['development', 'test']

  async run() {
    await this.seed()
  }

  /** Seeds what is missing; the operator's API key is returned only when this run made it. */
  async seed(): Promise<DemoWorld> {
    const [operators, publishers, onboarding] = await Promise.all([
      app.container.make(OperatorService),
      app.container.make(PublisherService),
      app.container.make(OnboardingService),
    ])
    const label =
      (await Label.findBy('slug', 'demo')) ??
      (await Label.create({
        slug: 'demo',
        name: 'Demo Energy',
        // Not the operator's teal: a publisher's pages visibly wear its label's brand.
        branding: { primary_color: '#1d4ed8' },
      }))

    // Acme Media is live and delivers by API; Bright Leads has just been invited.
    for (const [slug, name, live] of [
      ['acme-media', 'Acme Media', true],
      ['bright-leads', 'Bright Leads', false],
    ] as const) {
      const publisher =
        (await Publisher.findBy('slug', slug)) ??
        (await publishers.create(SYSTEM_OPERATOR, {
          slug,
          name,
          contact_email: `partners@${slug}.example`,
          label: label.slug,
          country: 'NL',
        }))
      // Through onboarding as a real publisher goes (delivery methods, rules confirmed, live),
      // finishing what an interrupted earlier run left undone.
      if (live && publisher.status !== 'live') {
        if (publisher.deliveryMethods.length === 0) {
          await publishers.update(SYSTEM_OPERATOR, publisher, {
            delivery_methods: ['api', 'form'],
          })
        }
        await onboarding.confirmRules(SYSTEM_OPERATOR, publisher)
        await publishers.update(SYSTEM_OPERATOR, publisher, { status: 'live' })
      }
    }

    const buyer =
      (await Buyer.query().where('name', 'Northwind Insurance').first()) ??
      (await Buyer.create({
        name: 'Northwind Insurance',
        contactEmail: 'leads@northwind.example',
        status: 'active',
      }))

    let apiKey: string | null = null
    if (!(await User.findBy('email', DEMO_LOGIN.email))) {
      const operator = await operators.create(DEMO_LOGIN)
      apiKey = operator.apiKey
    }

    const acme = await Publisher.findByOrFail('slug', 'acme-media')
    await this.ensureUser({
      email: 'publisher@leadgate.local',
      full_name: 'Acme Media (demo)',
      role: 'publisher_user',
      publisher_id: acme.id,
      permissions: ['read', 'submit'],
    })
    await this.ensureUser({
      email: 'buyer@leadgate.local',
      full_name: 'Northwind Insurance (demo)',
      role: 'buyer_user',
      buyer_id: buyer.id,
      permissions: ['read'],
    })
    await this.ensureUser({
      email: 'compliance@leadgate.local',
      full_name: 'Compliance officer (demo)',
      role: 'compliance_officer',
      permissions: ['read'],
    })

    const logins: DemoLogin[] = [
      { portal: '/operator', email: DEMO_LOGIN.email, password: DEMO_PASSWORD },
      { portal: '/publisher', email: 'publisher@leadgate.local', password: DEMO_PASSWORD },
      { portal: '/buyer', email: 'buyer@leadgate.local', password: DEMO_PASSWORD },
      { portal: '/compliance', email: 'compliance@leadgate.local', password: DEMO_PASSWORD },
    ]
    return { login: DEMO_LOGIN, logins, apiKey }
  }

  /** Made as the operator makes any portal user (access log included), once. */
  private async ensureUser(input: Omit<CreateUserInput, 'password'>) {
    if (await User.findBy('email', input.email)) return
    const users = await app.container.make(UserService)
    await users.create(SYSTEM_OPERATOR, { ...input, password: DEMO_PASSWORD })
  }
}
