import { test } from '@japa/runner'
import User from '#models/user'
import { PortalAgent } from '#tests/support/portal_agent'
import { createLabel, createPublisher, operatorKey, unique } from '#tests/support/fixtures'

const PASSWORD = 'a-long-enough-password'

async function agentAs(role: 'operator_admin' | 'publisher_user') {
  const publisher = role === 'publisher_user' ? await createPublisher() : null
  const user = await User.create({
    email: `${unique('retention')}@portal.example`,
    password: PASSWORD,
    role,
    publisherId: publisher?.id ?? null,
    permissions: ['read', 'submit'],
  })
  const agent = new PortalAgent()
  await agent.signIn(user.email, PASSWORD)
  return agent
}

test.group('Privacy / the retention page', () => {
  test('the operator sees a label’s periods, saves them, and a bad value changes nothing', async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const agent = await agentAs('operator_admin')
    const path = `/operator/labels/${label.id}/retention`
    const opened = await agent.visit(path)
    assert.equal(opened.status, 200)
    assert.equal(opened.page?.component, 'operator/labels/retention')
    assert.isNull(opened.page?.props.policy.contact_days)
    assert.isTrue(opened.page?.props.may_change)

    const periods = {
      contact_days: 30,
      ip_days: 7,
      attributes_days: null,
      uploads_days: 14,
      webhook_payload_days: 30,
      access_log_days: 365,
    }
    const saved = await agent.submit('PUT', path, periods)
    assert.equal(saved.location, path)
    const api = await client
      .get(`/v1/labels/${label.id}/retention`)
      .bearerToken(await operatorKey())
    assert.deepEqual(api.body(), periods)

    const refused = await agent.submit('PUT', path, { ...periods, contact_days: 0 })
    assert.equal(refused.location, path)
    const after = await agent.visit(path)
    assert.equal(after.page?.props.policy.contact_days, 30)
    assert.property(after.page?.props.errors ?? {}, 'contact_days')
  })

  test('the label page links to it; a publisher’s user cannot open it', async ({ assert }) => {
    const label = await createLabel()
    const operator = await agentAs('operator_admin')
    const page = await operator.visit(`/operator/labels/${label.id}/edit`)
    assert.equal(page.status, 200)
    const publisher = await agentAs('publisher_user')
    const refused = await publisher.visit(`/operator/labels/${label.id}/retention`)
    assert.equal(refused.status, 404)
  })
})
