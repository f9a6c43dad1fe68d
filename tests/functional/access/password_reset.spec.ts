import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import limiter from '@adonisjs/limiter/services/main'
import AccessLogEntry from '#models/access_log_entry'
import AccountToken from '#models/account_token'
import Label from '#models/label'
import User from '#models/user'
import UserSession from '#models/user_session'
import { digestOf } from '#services/access/secret_token'
import { RESET_THROTTLES, throttleKeys } from '#services/access/password_service'
import { createPublisher, operatorKey, unique } from '#tests/support/fixtures'
import { linkIn, mailParts } from '#tests/support/mail_parts'
import { mailTo } from '#tests/support/mailbox'
import { PortalAgent } from '#tests/support/portal_agent'

const PASSWORD = 'correct-horse-battery-staple'
const NEW_PASSWORD = 'a-fresh-password-for-me'

async function createUser(owner: { publisherId?: string } = {}) {
  return User.create({
    email: `${unique('forgetful')}@accounts.example`,
    password: PASSWORD,
    role: owner.publisherId ? 'publisher_user' : 'operator_admin',
    publisherId: owner.publisherId ?? null,
    buyerId: null,
    permissions: ['read', 'submit'],
  })
}

/** The reset mail is sent after the answer (so the answer's timing tells nothing): wait for it. */
async function mailsFor(address: string, count = 1) {
  const deadline = Date.now() + 5000
  while (mailTo(address).length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return mailTo(address)
}

async function askForReset(agent: PortalAgent, email: string) {
  await agent.visit('/forgot-password')
  return agent.submit('POST', '/forgot-password', { email })
}

async function resetLink(agent: PortalAgent, user: User, count = 1) {
  await askForReset(agent, user.email)
  const mails = await mailsFor(user.email, count)
  const link = linkIn(mails[count - 1], '/reset-password/')
  if (!link) throw new Error('The reset mail holds no link')
  return link.token
}

/** Every test starts with the IP's reset budget whole; the suite sends many from one address. */
async function liftIpThrottle() {
  const counted = limiter.use('redis', RESET_THROTTLES.ip)
  for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
    await counted.delete(throttleKeys.resetByIp(ip))
  }
}

test.group('Accounts / password reset', (group) => {
  group.each.setup(liftIpThrottle)

  test('the link in the e-mail sets a new password once and signs out every session', async ({
    assert,
  }) => {
    const user = await createUser()
    const signedIn = new PortalAgent()
    assert.equal(await signedIn.signIn(user.email, PASSWORD), '/portal')

    const visitor = new PortalAgent()
    const asked = await askForReset(visitor, user.email)
    assert.equal(asked.location, '/forgot-password')
    const sentPage = await visitor.visit('/forgot-password')
    assert.equal(sentPage.page?.component, 'auth/forgot_password')
    assert.isTrue(sentPage.page?.props.sent)

    const [mail] = await mailsFor(user.email)
    const link = linkIn(mail, '/reset-password/')!
    assert.match(link.token, /^pwr_[A-Za-z0-9_-]{43}$/)
    const stored = await AccountToken.findByOrFail('user_id', user.id)
    assert.equal(stored.purpose, 'password_reset')
    assert.equal(stored.tokenHash, digestOf(link.token))
    assert.notInclude(
      JSON.stringify(await AccountToken.query().where('user_id', user.id)),
      link.token
    )
    const minutes = stored.expiresAt.diff(stored.createdAt, 'minutes').minutes
    assert.closeTo(minutes, 60, 1)

    const form = await visitor.visit(`/reset-password/${link.token}`)
    assert.equal(form.page?.component, 'auth/choose_password')
    assert.equal(form.page?.props.email, user.email)
    assert.equal(form.page?.props.purpose, 'password_reset')

    const done = await visitor.submit('POST', `/reset-password/${link.token}`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    })
    assert.equal(done.location, '/login')
    const login = await visitor.visit('/login')
    assert.equal(login.page?.props.status, 'password_reset')

    const changed = await User.findOrFail(user.id)
    assert.isTrue(await changed.verifyPassword(NEW_PASSWORD))
    await stored.refresh()
    assert.isNotNull(stored.usedAt)
    // The session that was open before the reset is out on its next request.
    assert.equal((await signedIn.visit('/account')).location, '/login')
    assert.equal(
      (await UserSession.query().where('user_id', user.id).whereNull('revoked_at')).length,
      0
    )
    assert.equal(await new PortalAgent().signIn(user.email, PASSWORD), '/login')
    assert.equal(await new PortalAgent().signIn(user.email, NEW_PASSWORD), '/portal')

    const actions = (await AccessLogEntry.query().where('subject_id', user.id).orderBy('id')).map(
      (entry) => entry.action
    )
    assert.includeMembers(actions, [
      'user.password_reset_requested',
      'user.password_reset',
      'session.revoked',
    ])
    const trail = JSON.stringify(await AccessLogEntry.query().where('subject_id', user.id))
    assert.notInclude(trail, user.email)
    assert.notInclude(trail, link.token)
  })

  test('a used link shows a clear page and changes nothing', async ({ assert }) => {
    const user = await createUser()
    const agent = new PortalAgent()
    const token = await resetLink(agent, user)
    await agent.visit(`/reset-password/${token}`)
    await agent.submit('POST', `/reset-password/${token}`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    })
    const hash = (await User.findOrFail(user.id)).password

    const again = await agent.visit(`/reset-password/${token}`)
    assert.equal(again.status, 410)
    assert.equal(again.page?.component, 'auth/link_unavailable')
    assert.deepEqual(again.page?.props, {
      ...again.page?.props,
      reason: 'used',
      purpose: 'password_reset',
    })
    const reuse = await agent.submit('POST', `/reset-password/${token}`, {
      password: 'someone-elses-password',
      password_confirmation: 'someone-elses-password',
    })
    assert.equal(reuse.status, 410)
    assert.equal(reuse.page?.props.reason, 'used')
    assert.equal((await User.findOrFail(user.id)).password, hash)
  })

  test('an expired link shows a clear page and changes nothing', async ({ assert }) => {
    const user = await createUser()
    const agent = new PortalAgent()
    const token = await resetLink(agent, user)
    await AccountToken.query()
      .where('user_id', user.id)
      .update({ expires_at: DateTime.utc().minus({ minutes: 1 }).toSQL() })
    const hash = (await User.findOrFail(user.id)).password

    const shown = await agent.visit(`/reset-password/${token}`)
    assert.equal(shown.status, 410)
    assert.equal(shown.page?.props.reason, 'expired')
    const refused = await agent.submit('POST', `/reset-password/${token}`, {
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    })
    assert.equal(refused.status, 410)
    assert.equal((await User.findOrFail(user.id)).password, hash)
    assert.isNull((await AccountToken.findByOrFail('user_id', user.id)).usedAt)
  })

  test('only the newest link works; an unknown or malformed one is not found', async ({
    assert,
  }) => {
    const user = await createUser()
    const agent = new PortalAgent()
    const first = await resetLink(agent, user, 1)
    const second = await resetLink(agent, user, 2)
    assert.notEqual(first, second)
    assert.equal((await agent.visit(`/reset-password/${first}`)).page?.props.reason, 'expired')
    assert.equal((await agent.visit(`/reset-password/${second}`)).status, 200)

    for (const token of [
      `pwr_${'A'.repeat(43)}`,
      'pwr_short',
      "x' OR '1'='1",
      'inv_' + 'a'.repeat(43),
    ]) {
      const shown = await agent.visit(`/reset-password/${encodeURIComponent(token)}`)
      assert.equal(shown.status, 404, token)
      assert.equal(shown.page?.props.reason, 'unknown')
    }
  })

  test('an unknown address gets the very same answer, and no mail or link exists', async ({
    assert,
  }) => {
    const user = await createUser()
    const nobody = `${unique('nobody')}@accounts.example`
    const known = await askForReset(new PortalAgent(), user.email)
    const unknownAgent = new PortalAgent()
    const unknown = await askForReset(unknownAgent, nobody)
    assert.deepEqual([unknown.status, unknown.location], [known.status, known.location])
    const page = await unknownAgent.visit('/forgot-password')
    assert.isTrue(page.page?.props.sent)
    assert.deepEqual(page.page?.props.errors, {})
    await mailsFor(user.email)
    assert.lengthOf(mailTo(nobody), 0)
    assert.lengthOf(await AccountToken.query().where('user_id', user.id), 1)
  })

  test('a disabled user gets no link; the answer is the same', async ({ assert }) => {
    const user = await createUser()
    user.disabledAt = DateTime.utc()
    await user.save()
    const answer = await askForReset(new PortalAgent(), user.email)
    assert.equal(answer.location, '/forgot-password')
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.lengthOf(mailTo(user.email), 0)
    assert.isNull(await AccountToken.findBy('user_id', user.id))
  })

  test('requests are throttled per address, whether or not it has an account', async ({
    assert,
  }) => {
    const user = await createUser()
    const agent = new PortalAgent()
    for (let request = 0; request < RESET_THROTTLES.address.requests; request++) {
      assert.equal((await askForReset(agent, user.email)).location, '/forgot-password')
    }
    await mailsFor(user.email, RESET_THROTTLES.address.requests)
    const throttled = await askForReset(agent, user.email.toUpperCase())
    assert.equal(throttled.location, '/forgot-password')
    const { page } = await agent.visit('/forgot-password')
    assert.isFalse(page?.props.sent)
    assert.match(
      String(page?.props.errors.email),
      /Too many reset requests\. Try again in \d+ minutes?\./
    )
    const tokens = await AccountToken.query().where('user_id', user.id)
    assert.lengthOf(tokens, RESET_THROTTLES.address.requests)

    const nobody = `${unique('nobody')}@accounts.example`
    for (let request = 0; request < RESET_THROTTLES.address.requests; request++) {
      await askForReset(agent, nobody)
    }
    await askForReset(agent, nobody)
    assert.match(
      String((await agent.visit('/forgot-password')).page?.props.errors.email),
      /Too many/
    )
  })

  test('requests are throttled per network address', async ({ assert }) => {
    const agent = new PortalAgent()
    for (let request = 0; request < RESET_THROTTLES.ip.requests; request++) {
      await askForReset(agent, `${unique('many')}@accounts.example`)
      assert.notProperty((await agent.visit('/forgot-password')).page?.props.errors, 'email')
    }
    const user = await createUser()
    await askForReset(agent, user.email)
    assert.match(
      String((await agent.visit('/forgot-password')).page?.props.errors.email),
      /Too many/
    )
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.lengthOf(mailTo(user.email), 0)
    assert.isNull(await AccountToken.findBy('user_id', user.id))
  })

  test('a bad address or a weak new password is refused per field', async ({ assert }) => {
    const agent = new PortalAgent()
    await agent.visit('/forgot-password')
    await agent.submit('POST', '/forgot-password', { email: 'not-an-address' })
    assert.match(
      String((await agent.visit('/forgot-password')).page?.props.errors.email),
      /e-mail address/
    )

    const user = await createUser()
    const token = await resetLink(agent, user)
    await agent.visit(`/reset-password/${token}`)
    await agent.submit('POST', `/reset-password/${token}`, {
      password: 'short',
      password_confirmation: 'short',
    })
    const { page } = await agent.visit(`/reset-password/${token}`)
    assert.match(String(page?.props.errors.password), /at least 12/)
    assert.isTrue(await (await User.findOrFail(user.id)).verifyPassword(PASSWORD))
  })
})

test.group('Accounts / branded e-mails', (group) => {
  group.each.setup(liftIpThrottle)

  test("a label's user gets the reset in the label's name, colour and logo, all escaped", async ({
    assert,
  }) => {
    const label = await Label.create({
      slug: unique('brand'),
      name: 'Acme <b>& "Partners"',
      branding: { logo_url: 'https://cdn.example/acme.png?size=2&x="y"', primary_color: '#7c2d12' },
    })
    const publisher = await createPublisher({ label: label.slug })
    const user = await createUser({ publisherId: publisher.id })

    await askForReset(new PortalAgent(), user.email)
    const [mail] = await mailsFor(user.email)
    const { headers, text, html } = mailParts(mail)
    assert.match(headers, /^From: .*Acme.*Partners.*<no-reply@leadgate\.local>/m)
    assert.match(headers, /^Subject: .*Acme/m)
    assert.include(text, '/reset-password/pwr_')
    assert.include(html, '/reset-password/pwr_')
    assert.include(html, 'background:#7c2d12')
    assert.include(html, 'src="https://cdn.example/acme.png?size=2&amp;x=&quot;y&quot;"')
    assert.include(html, 'Acme &lt;b&gt;&amp; &quot;Partners&quot;')
    assert.notInclude(html, '<b>&')
  })

  test('a user without a label gets the operator brand', async ({ assert }) => {
    const user = await createUser()
    await askForReset(new PortalAgent(), user.email)
    const [mail] = await mailsFor(user.email)
    const { headers, html, text } = mailParts(mail)
    assert.match(headers, /^From: "?Leadgate"? <no-reply@leadgate\.local>/m)
    assert.include(html, 'background:#0f766e')
    assert.notInclude(html, '<img')
    assert.include(text, 'Reset your password')
  })

  test("the publisher invitation wears the label's brand and carries its link in both parts", async ({
    assert,
    client,
  }) => {
    const label = await Label.create({
      slug: unique('brand'),
      name: 'Northwind Leads',
      branding: { primary_color: '#1d4ed8' },
    })
    const slug = unique('invited')
    const email = `${slug}@accounts.example`
    const response = await client
      .post('/v1/publishers')
      .bearerToken(await operatorKey())
      .json({ slug, name: 'Invited & Co', contact_email: email, label: label.slug })
    response.assertStatus(201)
    const [mail] = mailTo(email)
    const { headers, html, text } = mailParts(mail)
    assert.match(headers, /^From: "?Northwind Leads"? <no-reply@leadgate\.local>/m)
    assert.include(html, 'background:#1d4ed8')
    assert.include(html, 'Invited &amp; Co')
    assert.match(text, /\/invitations\/inv_[A-Za-z0-9_-]{43}/)
    assert.match(html, /\/invitations\/inv_[A-Za-z0-9_-]{43}/)
  })
})
