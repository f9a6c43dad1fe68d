import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import AccessLogEntry from '#models/access_log_entry'
import User from '#models/user'
import UserSession from '#models/user_session'
import { unique } from '#tests/support/fixtures'
import { FIREFOX_ON_LINUX, PortalAgent } from '#tests/support/portal_agent'

const PASSWORD = 'correct-horse-battery-staple'
const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'
const SAFARI_ON_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

async function createUser(password = PASSWORD) {
  return User.create({
    email: `${unique('person')}@accounts.example`,
    password,
    role: 'operator_admin',
    publisherId: null,
    buyerId: null,
    permissions: ['read', 'submit'],
  })
}

async function signedIn(user: User, userAgent = FIREFOX_ON_LINUX) {
  const agent = new PortalAgent(userAgent)
  const location = await agent.signIn(user.email, PASSWORD)
  if (location !== '/portal') throw new Error(`Sign-in did not succeed: ${location}`)
  return agent
}

async function openSessions(user: User) {
  return UserSession.query().where('user_id', user.id).whereNull('revoked_at').orderBy('created_at')
}

async function logged(user: User, action: string) {
  return AccessLogEntry.query().where('subject_id', user.id).where('action', action).orderBy('id')
}

test.group('Accounts / sessions', () => {
  test('signing in records the session with a coarse device, and /account lists it as current', async ({
    assert,
  }) => {
    const user = await createUser()
    const agent = await signedIn(user)

    const [session] = await openSessions(user)
    assert.equal(session.userAgent, 'Firefox on Linux')
    assert.match(session.sessionHash, /^[0-9a-f]{64}$/)
    assert.isNull(session.revokedAt)
    assert.lengthOf(await logged(user, 'session.opened'), 1)

    const { page } = await agent.visit('/account')
    assert.equal(page?.component, 'account/show')
    assert.deepEqual(
      page?.props.sessions.map((row: any) => [row.id, row.device, row.current]),
      [[session.id, 'Firefox on Linux', true]]
    )
    // The raw header and the session id's digest stay on the server.
    assert.notInclude(JSON.stringify(page?.props), FIREFOX_ON_LINUX)
    assert.notInclude(JSON.stringify(page?.props), session.sessionHash)
  })

  test('a session signed out from elsewhere ends on its next request', async ({ assert }) => {
    const user = await createUser()
    const laptop = await signedIn(user)
    const phone = await signedIn(user, SAFARI_ON_IOS)
    const phoneSession = (await openSessions(user)).find(
      (row) => row.userAgent === 'Safari on iOS'
    )!

    const revoked = await laptop.submit('DELETE', `/account/sessions/${phoneSession.id}`)
    assert.equal(revoked.location, '/account')
    await phoneSession.refresh()
    assert.isNotNull(phoneSession.revokedAt)
    const [entry] = await logged(user, 'session.revoked')
    assert.deepEqual(entry.details, { session_ids: [phoneSession.id], reason: 'signed_out' })

    assert.equal((await phone.visit('/account')).location, '/login')
    // Signed out for good: the same cookie does not come back in.
    assert.equal((await phone.visit('/portal')).location, '/login')
    assert.equal((await laptop.visit('/account')).page?.component, 'account/show')
  })

  test('"sign out everywhere else" ends every other session and keeps this one', async ({
    assert,
  }) => {
    const user = await createUser()
    const here = await signedIn(user, CHROME_ON_WINDOWS)
    const others = [await signedIn(user), await signedIn(user, SAFARI_ON_IOS)]
    const bystander = await createUser()
    const bystanderAgent = await signedIn(bystander)

    const answer = await here.submit('POST', '/account/sessions/sign-out-others')
    assert.equal(answer.location, '/account')

    const open = await openSessions(user)
    assert.deepEqual(
      open.map((row) => row.userAgent),
      ['Chrome on Windows']
    )
    for (const other of others) assert.equal((await other.visit('/account')).location, '/login')
    const { page } = await here.visit('/account')
    assert.lengthOf(page?.props.sessions, 1)
    assert.isTrue(page?.props.sessions[0].current)
    assert.deepEqual(page?.props.notice, {
      severity: 'success',
      summary: 'Your 2 other sessions are signed out.',
    })
    const [entry] = await logged(user, 'session.revoked')
    assert.equal(entry.details.reason, 'signed_out_elsewhere')
    assert.lengthOf(entry.details.session_ids as string[], 2)
    // Another user's sessions are not touched.
    assert.lengthOf(await openSessions(bystander), 1)
    assert.equal((await bystanderAgent.visit('/account')).page?.component, 'account/show')
  })

  test("another user's session cannot be signed out: nothing changes", async ({ assert }) => {
    const [mine, theirs] = [await createUser(), await createUser()]
    const agent = await signedIn(mine)
    await signedIn(theirs)
    const [target] = await openSessions(theirs)

    await agent.visit('/account')
    // Another owner's resource is not there: 404, as on every portal route.
    const answer = await agent.submit('DELETE', `/account/sessions/${target.id}`)
    assert.equal(answer.status, 404)
    await target.refresh()
    assert.isNull(target.revokedAt)
    assert.lengthOf(await logged(theirs, 'session.revoked'), 0)
    const malformed = await agent.submit('DELETE', '/account/sessions/not-a-uuid')
    assert.equal(malformed.status, 404)
  })

  test('logging out revokes the row; a session without a row is not let in', async ({ assert }) => {
    const user = await createUser()
    const agent = await signedIn(user)
    const [session] = await openSessions(user)
    assert.equal((await agent.submit('POST', '/logout')).location, '/login')
    await session.refresh()
    assert.isNotNull(session.revokedAt)
    assert.lengthOf(await logged(user, 'session.closed'), 1)

    const untracked = await signedIn(user)
    await UserSession.query().where('user_id', user.id).delete()
    assert.equal((await untracked.visit('/account')).location, '/login')
  })

  test('last seen is written at most once a minute', async ({ assert }) => {
    const user = await createUser()
    const agent = await signedIn(user)
    const [session] = await openSessions(user)
    const stale = DateTime.utc().minus({ minutes: 5 })
    await UserSession.query().where('id', session.id).update({ last_seen_at: stale.toSQL() })

    await agent.visit('/account')
    await session.refresh()
    const touched = session.lastSeenAt
    assert.isAbove(touched.toMillis(), stale.plus({ minutes: 4 }).toMillis())

    await agent.visit('/account')
    await session.refresh()
    assert.equal(session.lastSeenAt.toMillis(), touched.toMillis())
  })
})

test.group('Accounts / change own password', () => {
  test('the current password is required; a wrong one changes nothing', async ({ assert }) => {
    const user = await createUser()
    const agent = await signedIn(user)
    const other = await signedIn(user, SAFARI_ON_IOS)
    const before = (await User.findOrFail(user.id)).password

    await agent.visit('/account')
    const answer = await agent.submit('PUT', '/account/password', {
      current_password: 'not-my-password',
      password: 'a-brand-new-password',
      password_confirmation: 'a-brand-new-password',
    })
    assert.equal(answer.location, '/account')
    const { page } = await agent.visit('/account')
    assert.match(String(page?.props.errors.current_password), /not your current password/)
    assert.equal((await User.findOrFail(user.id)).password, before)
    assert.lengthOf(await openSessions(user), 2)
    assert.equal((await other.visit('/account')).page?.component, 'account/show')
    assert.lengthOf(await logged(user, 'user.password_changed'), 0)
  })

  test('too short or unconfirmed new passwords are refused per field', async ({ assert }) => {
    const user = await createUser()
    const agent = await signedIn(user)
    const before = (await User.findOrFail(user.id)).password
    await agent.visit('/account')
    await agent.submit('PUT', '/account/password', {
      current_password: PASSWORD,
      password: 'short',
      password_confirmation: 'other',
    })
    const { page } = await agent.visit('/account')
    assert.match(String(page?.props.errors.password), /at least 12/)
    assert.equal((await User.findOrFail(user.id)).password, before)
  })

  test('a changed password signs out every other session and says so', async ({ assert }) => {
    const user = await createUser()
    const agent = await signedIn(user)
    const other = await signedIn(user, SAFARI_ON_IOS)

    const answer = await agent.submit('PUT', '/account/password', {
      current_password: PASSWORD,
      password: 'a-brand-new-password',
      password_confirmation: 'a-brand-new-password',
    })
    assert.equal(answer.location, '/account')
    const { page } = await agent.visit('/account')
    assert.deepEqual(page?.props.notice, {
      severity: 'success',
      summary: 'Password changed. Your other session is signed out.',
    })
    const stored = await User.findOrFail(user.id)
    assert.isTrue(await stored.verifyPassword('a-brand-new-password'))
    assert.isFalse(await stored.verifyPassword(PASSWORD))
    assert.equal((await other.visit('/account')).location, '/login')
    assert.lengthOf(await openSessions(user), 1)
    const [entry] = await logged(user, 'user.password_changed')
    assert.deepEqual(entry.details, { sessions_ended: 1 })
    assert.notInclude(JSON.stringify(entry.details), 'a-brand-new-password')
  })
})

test.group('Accounts / login throttling', () => {
  test('five wrong passwords lock the address out from this place, even for the right one', async ({
    assert,
  }) => {
    const user = await createUser()
    const agent = new PortalAgent()
    for (let attempt = 0; attempt < 5; attempt++) {
      assert.equal(await agent.signIn(user.email, `wrong-${attempt}`), '/login')
    }
    assert.equal(await agent.signIn(user.email, PASSWORD), '/login')
    const { page } = await agent.visit('/login')
    assert.match(
      String(page?.props.errors.email),
      /Too many failed sign-ins\. Try again in 15 minutes\./
    )
    assert.lengthOf(await openSessions(user), 0)
  })

  test('a successful sign-in clears the count', async ({ assert }) => {
    const user = await createUser()
    const agent = new PortalAgent()
    for (let attempt = 0; attempt < 4; attempt++) await agent.signIn(user.email, 'wrong-password')
    assert.equal(await agent.signIn(user.email, PASSWORD), '/portal')
    await agent.submit('POST', '/logout')
    // Four more failures would make eight in the window had the success not cleared it.
    for (let attempt = 0; attempt < 4; attempt++) await agent.signIn(user.email, 'wrong-password')
    assert.equal(await agent.signIn(user.email, PASSWORD), '/portal')
  })
})
