import { test } from '@japa/runner'
import User from '#models/user'
import { createBuyer, createLabel, createPublisher, unique } from '#tests/support/fixtures'
import { PortalAgent } from '#tests/support/portal_agent'

const PASSWORD = 'a-long-enough-password'
type Role =
  'operator_admin' | 'publisher_user' | 'buyer_user' | 'compliance_officer' | 'label_manager'

/** A portal session that also reads a file as the browser downloads it. */
class Agent extends PortalAgent {
  async download(path: string) {
    const response = await this.send('GET', path, undefined, false)
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: await response.text(),
    }
  }
}

/** A signed-in portal user of each role (a label manager of `labelId`). */
async function agentAs(role: Role, labelId: string) {
  const publisher = await createPublisher()
  const buyer = await createBuyer()
  const user = await User.create({
    email: `${unique(role)}@portal.example`,
    password: PASSWORD,
    role,
    permissions: ['read', 'submit'],
    publisherId: role === 'publisher_user' ? publisher.id : null,
    buyerId: role === 'buyer_user' ? buyer.id : null,
    labelId: role === 'label_manager' ? labelId : null,
  })
  const agent = new Agent()
  await agent.signIn(user.email, PASSWORD)
  return agent
}

/** Each dashboard address (junk included) and the component it must open as. */
const PAGES: Record<string, { role: Role; paths: string[]; component: string }> = {
  operator: {
    role: 'operator_admin',
    component: 'reports/dashboard',
    paths: [
      '/operator/reports',
      '/operator/reports?period=today&group_by=label&metric=margin_cents',
      '/operator/reports?period=custom&from=2026-03-01&to=2026-03-31&group_by=buyer',
      '/operator/reports?period=custom&from=2026-03-31&to=2026-03-01',
      '/operator/reports?period=custom&from=2001-01-01&to=2026-01-01',
      '/operator/reports?period=junk&group_by=junk&metric=junk&environment=junk',
      '/operator/reports?environment=sandbox&group_by=channel',
    ],
  },
  label_manager: {
    role: 'label_manager',
    component: 'reports/dashboard',
    paths: [
      '/label_manager',
      '/label_manager?group_by=buyer&metric=revenue_cents',
      '/label_manager?period=custom&from=junk',
    ],
  },
  publisher: { role: 'publisher_user', component: 'reports/live', paths: ['/publisher/dashboard'] },
}

const EXPORTS = ['/operator/reports', '/label_manager'].flatMap((base) =>
  ['kpis', 'timeseries'].flatMap((kind) =>
    ['csv', 'json'].map((format) => `${base}/${kind}?period=last_30_days&format=${format}`)
  )
)

test.group('Reports / the dashboard pages', () => {
  test('every dashboard opens whatever its address says; a junk period falls back with a word', async ({
    assert,
  }) => {
    const label = await createLabel()
    const failures: string[] = []
    for (const { role, paths, component } of Object.values(PAGES)) {
      const agent = await agentAs(role, label.id)
      for (const path of paths) {
        const { status, page } = await agent.visit(path)
        if (status !== 200 || page?.component !== component) {
          failures.push(`GET ${path} as ${role}: ${status} ${page?.component}`)
        }
      }
    }
    assert.deepEqual(failures, [])

    const agent = await agentAs('operator_admin', label.id)
    const reversed = await agent.visit(PAGES.operator.paths[3])
    assert.include(reversed.page!.props.query.error, 'first day')
    assert.equal(reversed.page!.props.query.period, 'last_7_days')
    // A label manager never groups by buyer nor sees money.
    const manager = await agentAs('label_manager', label.id)
    const managed = await manager.visit(PAGES.label_manager.paths[1])
    assert.equal(managed.page!.props.query.group_by, 'publisher')
    assert.notEqual(managed.page!.props.query.metric, 'revenue_cents')
    assert.notProperty(managed.page!.props.report.totals, 'revenue_cents')
  })

  test('the exports answer CSV and JSON to their own role, and 404 to every other', async ({
    assert,
  }) => {
    const label = await createLabel()
    const roles: Role[] = [
      'operator_admin',
      'publisher_user',
      'buyer_user',
      'compliance_officer',
      'label_manager',
    ]
    const owner = (path: string): Role =>
      path.startsWith('/operator')
        ? 'operator_admin'
        : path.startsWith('/publisher')
          ? 'publisher_user'
          : 'label_manager'
    const failures: string[] = []
    for (const role of roles) {
      const agent = await agentAs(role, label.id)
      for (const path of [
        ...EXPORTS,
        '/label_manager',
        '/operator/reports',
        '/publisher/dashboard',
      ]) {
        const mine =
          owner(path) === role || (path === '/publisher/dashboard' && role === 'publisher_user')
        const { status, type, body } = await agent.download(path)
        const expected = mine ? 200 : 404
        if (status !== expected) failures.push(`GET ${path} as ${role}: ${status}, not ${expected}`)
        if (mine && path.includes('format=csv') && !type.startsWith('text/csv'))
          failures.push(`GET ${path}: ${type}`)
        if (mine && path.includes('format=json')) JSON.parse(body)
      }
    }
    assert.deepEqual(failures, [])
  })
})
