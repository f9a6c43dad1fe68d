import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import AccessLogEntry from '#models/access_log_entry'
import AccountToken from '#models/account_token'
import PublisherInvitation from '#models/publisher_invitation'
import User from '#models/user'
import UserSession from '#models/user_session'
import { digestOf } from '#services/access/secret_token'
import {
  createBuyer,
  createKey,
  createLabel,
  createPublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'
import { linkIn, mailParts } from '#tests/support/mail_parts'
import { mailTo } from '#tests/support/mailbox'
import { PortalAgent } from '#tests/support/portal_agent'

const PASSWORD = 'correct-horse-battery-staple'

async function invitePublisher(client: any, key: string, label?: string) {
  const slug = unique('invitee')
  const email = `${slug}@accounts.example`
  const response = await client
    .post('/v1/publishers')
    .bearerToken(key)
    .json({ slug, name: `Invitee ${slug}`, contact_email: email, ...(label ? { label } : {}) })
  response.assertStatus(201)
  return { id: response.body().id as string, email }
}

async function inviteUser(client: any, key: string, body: Record<string, unknown> = {}) {
  const email = `${unique('newcomer')}@accounts.example`
  const response = await client
    .post('/v1/users')
    .bearerToken(key)
    .json({ email, role: 'compliance_officer', ...body })
  response.assertStatus(201)
  return { id: response.body().id as string, email }
}

function tokens(email: string, path: string) {
  return mailTo(email).map((mail) => linkIn(mail, path)!.token)
}

async function choosePassword(agent: PortalAgent, path: string) {
  await agent.visit(path)
  return agent.submit('POST', path, { password: PASSWORD, password_confirmation: PASSWORD })
}

test.group('Accounts / resend a publisher invitation', () => {
  test('the operator resends: a new link works, the old one is dead, the grant is logged', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const { id, email } = await invitePublisher(client, key)
    const [old] = tokens(email, '/invitations/')

    const response = await client.post(`/v1/publishers/${id}/invitation`).bearerToken(key)
    response.assertStatus(200)
    assert.isTrue(response.body().email_sent)
    const expiresAt = DateTime.fromISO(response.body().expires_at)
    assert.closeTo(expiresAt.diff(DateTime.utc(), 'days').days, 14, 0.01)

    const [, fresh] = tokens(email, '/invitations/')
    assert.notEqual(fresh, old)
    const stored = await PublisherInvitation.findOrFail(response.body().id)
    assert.equal(stored.tokenHash, digestOf(fresh))
    const previous = await PublisherInvitation.findByOrFail('token_hash', digestOf(old))
    assert.isAtMost(previous.expiresAt.toMillis(), Date.now())
    const entry = await AccessLogEntry.query()
      .where('subject_id', id)
      .where('action', 'publisher.invitation_resent')
      .firstOrFail()
    assert.match(entry.actor, /^api_key:/)
    assert.deepEqual(entry.details, { invitation_id: stored.id })

    const agent = new PortalAgent()
    const dead = await agent.visit(`/invitations/${old}`)
    assert.equal(dead.status, 410)
    assert.equal(dead.page?.props.reason, 'expired')
    const accepted = await choosePassword(agent, `/invitations/${fresh}`)
    assert.equal(accepted.location, '/portal')
    const user = await User.findByOrFail('email', email)
    const [session] = await UserSession.query().where('user_id', user.id)
    assert.isNull(session.revokedAt)
    assert.equal((await agent.visit('/account')).page?.component, 'account/show')
  })

  test('409 once accepted: no new invitation, no mail', async ({ client, assert }) => {
    const key = await operatorKey()
    const { id, email } = await invitePublisher(client, key)
    await choosePassword(new PortalAgent(), `/invitations/${tokens(email, '/invitations/')[0]}`)

    const response = await client.post(`/v1/publishers/${id}/invitation`).bearerToken(key)
    response.assertStatus(409)
    assert.equal(response.body().code, 'invitation_accepted')
    assert.include(response.header('content-type'), 'application/problem+json')
    assert.lengthOf(await PublisherInvitation.query().where('publisher_id', id), 1)
    assert.lengthOf(mailTo(email), 1)
  })

  test("another owner's publisher answers 404, the publisher itself 403, and nothing changes", async ({
    client,
    assert,
  }) => {
    const target = await createPublisher()
    const other = await createPublisher()
    const buyer = await createBuyer()
    const before = await PublisherInvitation.query().where('publisher_id', target.id)
    for (const key of [
      (await createKey({ publisherId: other.id })).secret,
      (await createKey({ buyerId: buyer.id })).secret,
    ]) {
      const response = await client.post(`/v1/publishers/${target.id}/invitation`).bearerToken(key)
      response.assertStatus(404)
      assert.equal(response.body().code, 'not_found')
    }
    const own = await client
      .post(`/v1/publishers/${target.id}/invitation`)
      .bearerToken((await createKey({ publisherId: target.id })).secret)
    own.assertStatus(403)
    assert.deepEqual(
      (await PublisherInvitation.query().where('publisher_id', target.id)).map((row) => [
        row.id,
        row.expiresAt.toMillis(),
      ]),
      before.map((row) => [row.id, row.expiresAt.toMillis()])
    )
    assert.lengthOf(mailTo(target.contactEmail), 1)
  })
})

test.group('Accounts / invite a user and resend', () => {
  test('a user created without a password is invited, and the link sets it and signs in', async ({
    client,
    assert,
  }) => {
    const { id, email } = await inviteUser(client, await operatorKey())
    const [mail] = mailTo(email)
    const link = linkIn(mail, '/welcome/')!
    assert.match(link.token, /^uin_[A-Za-z0-9_-]{43}$/)
    const stored = await AccountToken.findByOrFail('user_id', id)
    assert.equal(stored.purpose, 'invitation')
    assert.equal(stored.tokenHash, digestOf(link.token))
    // Until the link is used, no password signs the user in.
    assert.equal(await new PortalAgent().signIn(email, PASSWORD), '/login')

    const agent = new PortalAgent()
    const page = await agent.visit(`/welcome/${link.token}`)
    assert.equal(page.page?.component, 'auth/choose_password')
    assert.equal(page.page?.props.purpose, 'invitation')
    assert.equal((await choosePassword(agent, `/welcome/${link.token}`)).location, '/portal')
    assert.isTrue(await (await User.findOrFail(id)).verifyPassword(PASSWORD))
    await stored.refresh()
    assert.isNotNull(stored.usedAt)
    assert.lengthOf(await UserSession.query().where('user_id', id).whereNull('revoked_at'), 1)
    const used = await new PortalAgent().visit(`/welcome/${link.token}`)
    assert.equal(used.status, 410)
    assert.equal(used.page?.props.reason, 'used')
  })

  test('the operator resends: old link dead, new one works, then 409', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const { id, email } = await inviteUser(client, key)
    const response = await client.post(`/v1/users/${id}/invitation`).bearerToken(key)
    response.assertStatus(200)
    assert.isTrue(response.body().email_sent)
    const [old, fresh] = tokens(email, '/welcome/')
    assert.notEqual(old, fresh)
    assert.equal((await AccountToken.findOrFail(response.body().id)).tokenHash, digestOf(fresh))
    assert.exists(
      await AccessLogEntry.query()
        .where('subject_id', id)
        .where('action', 'user.invitation_resent')
        .first()
    )

    const agent = new PortalAgent()
    const dead = await agent.visit(`/welcome/${old}`)
    assert.equal(dead.status, 410)
    assert.equal(dead.page?.props.reason, 'expired')
    const refused = await agent.submit('POST', `/welcome/${old}`, {
      password: PASSWORD,
      password_confirmation: PASSWORD,
    })
    assert.equal(refused.status, 410)
    assert.equal((await choosePassword(agent, `/welcome/${fresh}`)).location, '/portal')

    const again = await client.post(`/v1/users/${id}/invitation`).bearerToken(key)
    again.assertStatus(409)
    assert.equal(again.body().code, 'invitation_accepted')
    assert.lengthOf(mailTo(email), 2)
  })

  test('a user created with a password has no invitation to resend: 409', async ({
    client,
    assert,
  }) => {
    const key = await operatorKey()
    const { id, email } = await inviteUser(client, key, { password: PASSWORD })
    assert.lengthOf(mailTo(email), 0)
    const response = await client.post(`/v1/users/${id}/invitation`).bearerToken(key)
    response.assertStatus(409)
    assert.lengthOf(await AccountToken.query().where('user_id', id), 0)
  })

  test("a publisher resends to its own users, in its label's brand; others get 404", async ({
    client,
    assert,
  }) => {
    const label = await createLabel()
    const mine = await createPublisher({ label: label.slug })
    const ownKey = (await createKey({ publisherId: mine.id })).secret
    const { id, email } = await inviteUser(client, ownKey, {
      role: 'publisher_user',
      publisher_id: mine.id,
      permissions: ['read'],
    })
    assert.match(mailParts(mailTo(email)[0]).headers, new RegExp(`^From: "?${label.name}"? <`, 'm'))

    const resent = await client.post(`/v1/users/${id}/invitation`).bearerToken(ownKey)
    resent.assertStatus(200)
    assert.lengthOf(mailTo(email), 2)

    const stranger = await createPublisher()
    const buyer = await createBuyer()
    const before = await AccountToken.query().where('user_id', id).orderBy('id')
    for (const key of [
      (await createKey({ publisherId: stranger.id })).secret,
      (await createKey({ buyerId: buyer.id })).secret,
    ]) {
      const response = await client.post(`/v1/users/${id}/invitation`).bearerToken(key)
      response.assertStatus(404)
      assert.equal(response.body().code, 'not_found')
    }
    const readOnly = (await createKey({ publisherId: mine.id, permissions: ['read'] })).secret
    ;(await client.post(`/v1/users/${id}/invitation`).bearerToken(readOnly)).assertStatus(403)
    assert.deepEqual(
      (await AccountToken.query().where('user_id', id).orderBy('id')).map((row) => [
        row.id,
        row.expiresAt.toMillis(),
      ]),
      before.map((row) => [row.id, row.expiresAt.toMillis()])
    )
    assert.lengthOf(mailTo(email), 2)
  })
})
