import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import { DateTime } from 'luxon'
import type { ApiClient } from '@japa/api-client'
import db from '@adonisjs/lucid/services/db'
import redis from '@adonisjs/redis/services/main'
import transmit from '@adonisjs/transmit/services/main'
import User from '#models/user'
import type { Permission } from '#auth/principal'
import { announceLeads, liveChannel } from '#services/reports/live_feed'
import { recheckLiveAccess } from '#services/reports/live_access'
import { WATCHED_PUBLISHERS_KEY, watchedAmong } from '#services/reports/live_watchers'
import { leadBody, livePublisher, unique } from '#tests/support/fixtures'
import { PortalAgent } from '#tests/support/portal_agent'

const PASSWORD = 'a-long-enough-password'

/**
 * A portal session that also speaks transmit's protocol as the browser client does: an
 * event stream for its uid, then subscriptions posted with the session's cookie and its
 * XSRF token.
 */
class LiveAgent extends PortalAgent {
  readonly uid = randomUUID()
  /** The portal user signed in, once `publisherAgent` made it. */
  user?: User
  messages: { channel: string; payload: any }[] = []
  #abort = new AbortController()

  /** Opens the event stream and reads it in the background; resolves once it is open. */
  async openStream() {
    const response = await fetch(this.url(`/__transmit/events?uid=${this.uid}`), {
      headers: { cookie: this.cookieHeader(), accept: 'text/event-stream' },
      signal: this.#abort.signal,
    })
    if (response.status !== 200) throw new Error(`The stream answered ${response.status}`)
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
    void (async () => {
      let buffer = ''
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return
          buffer += value
          let end: number
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const event = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const data = event
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trim())
              .join('')
            // Transmit's keep-alive ping reaches every stream every 30 s, as the browser
            // client sees it too; it carries no figures and no subscription.
            const message = data ? JSON.parse(data) : null
            if (message && message.channel !== '$$transmit/ping') this.messages.push(message)
          }
        }
      } catch {
        // Closed by the test.
      }
    })()
  }

  /** POST /__transmit/subscribe for this uid: 204 subscribed, 400 refused. */
  async subscribe(channel: string) {
    if (!this.cookies.has('XSRF-TOKEN')) await this.visit('/login')
    const response = await fetch(this.url('/__transmit/subscribe'), {
      method: 'POST',
      headers: {
        'cookie': this.cookieHeader(),
        'content-type': 'application/json',
        'x-xsrf-token': decodeURIComponent(this.cookies.get('XSRF-TOKEN') ?? ''),
      },
      body: JSON.stringify({ uid: this.uid, channel }),
      redirect: 'manual',
    })
    await response.text()
    return response.status
  }

  /** The messages heard on a channel, waiting up to `ms` for at least one. */
  async heard(channel: string, ms = 2000) {
    const started = Date.now()
    for (;;) {
      const found = this.messages.filter((message) => message.channel === channel)
      if (found.length || Date.now() - started > ms) return found
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  close() {
    this.#abort.abort()
  }

  address(path: string) {
    return this.url(path)
  }

  protected cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }
}

async function publisherAgent(publisherId: string, permissions: Permission[] = ['read']) {
  const user = await User.create({
    email: `${unique('live')}@portal.example`,
    password: PASSWORD,
    role: 'publisher_user',
    publisherId,
    permissions,
  })
  const agent = new LiveAgent()
  agent.user = user
  await agent.signIn(user.email, PASSWORD)
  return agent
}

/** Two live publishers, and a signed-in user of the first with its event stream open. */
async function twoPublishers(cleanup: (handler: () => void) => void) {
  const mine = await livePublisher()
  const theirs = await livePublisher()
  const agent = await publisherAgent(mine.publisher.id)
  cleanup(() => agent.close())
  await agent.openStream()
  return { mine, theirs, agent }
}

test.group('Reports / the live channel of a publisher’s dashboard', () => {
  test('a publisher hears its own leads within 2 s, with no personal data, and never another publisher’s', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { mine, theirs, agent } = await twoPublishers(cleanup)
    assert.equal(await agent.subscribe(liveChannel(mine.publisher.id)), 204)

    // Another publisher's lead: nothing on this stream.
    const other = await client
      .post('/v1/leads')
      .bearerToken(theirs.key)
      .json(leadBody(theirs.publisher.slug))
    assert.equal(other.status(), 201)

    const started = Date.now()
    const body = leadBody(mine.publisher.slug)
    const lead = await client.post('/v1/leads').bearerToken(mine.key).json(body)
    assert.equal(lead.status(), 201)
    const heard = await agent.heard(liveChannel(mine.publisher.id))
    const elapsed = Date.now() - started
    assert.lengthOf(heard, 1)
    assert.isBelow(elapsed, 2000)
    const { figures, computed_at: computedAt, ...change } = heard[0].payload
    assert.deepEqual(change, { change: 'leads', environment: 'live' })
    assert.isAtLeast(Date.parse(computedAt), started)
    // The figures pushed are the ones the page would read itself, a publisher's view.
    const { page } = await agent.visit('/publisher/dashboard')
    assert.deepEqual(figures, {
      report: page!.props.report,
      trend: page!.props.trend,
      settlement: page!.props.settlement,
    })
    assert.equal(figures.report.totals.volume, 1)
    for (const hidden of ['revenue_cents', 'margin_cents']) {
      assert.notProperty(figures.report.totals, hidden)
      assert.notProperty(figures.report.totals.previous, hidden)
    }
    // Only this publisher's channel, and nothing of the lead itself.
    assert.deepEqual(
      [...new Set(agent.messages.map((message) => message.channel))],
      [liveChannel(mine.publisher.id)]
    )
    const everything = JSON.stringify(agent.messages)
    for (const personal of [body.contact.email, body.contact.phone, body.contact.name]) {
      assert.notInclude(everything, personal)
    }
    assert.notInclude(everything, lead.body().id)
  })

  test('a burst of leads is computed and pushed at most once a second, and the last push counts them all', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { mine, agent } = await twoPublishers(cleanup)
    const channel = liveChannel(mine.publisher.id)
    assert.equal(await agent.subscribe(channel), 204)

    // Four senders posting back to back for 2.5 s.
    const started = Date.now()
    let posted = 0
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (Date.now() - started < 2500) {
          const lead = await client
            .post('/v1/leads')
            .bearerToken(mine.key)
            .json(leadBody(mine.publisher.slug))
          assert.equal(lead.status(), 201)
          posted++
        }
      })
    )
    const lasted = Date.now() - started
    // The last lead's push comes at most a second and a computation later.
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const heard = agent.messages.filter((message) => message.channel === channel)
    const times = heard.map((message) => Date.parse(message.payload.computed_at))
    assert.isAtLeast(posted, 10)
    assert.isAtLeast(heard.length, 2)
    assert.isAtMost(heard.length, Math.ceil(lasted / 1000) + 1)
    for (let i = 1; i < times.length; i++) assert.isAtLeast(times[i] - times[i - 1], 990)
    assert.equal(heard.at(-1)!.payload.figures.report.totals.volume, posted)
  }).timeout(30_000)

  test('sandbox leads push nothing: the dashboard shows live figures only', async ({
    assert,
    cleanup,
  }) => {
    const { mine, agent } = await twoPublishers(cleanup)
    const channel = liveChannel(mine.publisher.id)
    assert.equal(await agent.subscribe(channel), 204)
    announceLeads(mine.publisher.id, 'sandbox')
    assert.lengthOf(await agent.heard(channel, 800), 0)
    announceLeads(mine.publisher.id, 'live')
    const [heard] = await agent.heard(channel)
    assert.equal(heard.payload.environment, 'live')
    assert.equal(heard.payload.figures.report.totals.volume, 0)
  })

  test('another publisher’s channel is refused, and so is a user who may not read reports', async ({
    assert,
    cleanup,
  }) => {
    const { mine, theirs, agent } = await twoPublishers(cleanup)
    assert.equal(await agent.subscribe(liveChannel(theirs.publisher.id)), 400)
    assert.equal(await agent.subscribe(liveChannel(mine.publisher.id)), 204)

    // A deliver-only user of the same publisher sees no figures, live or not.
    const deliverer = await publisherAgent(mine.publisher.id, ['submit'])
    cleanup(() => deliverer.close())
    await deliverer.openStream()
    assert.equal(await deliverer.subscribe(liveChannel(mine.publisher.id)), 400)
  })

  test('without a session there is no stream and no subscription', async ({ assert }) => {
    const { publisher } = await livePublisher()
    const stranger = new LiveAgent()
    assert.notEqual(await stranger.subscribe(liveChannel(publisher.id)), 204)
    const stream = await fetch(stranger.address('/__transmit/events?uid=x'), {
      redirect: 'manual',
    })
    assert.notEqual(stream.status, 200)
    await stream.body?.cancel()
  })
})

test.group('Reports / a live subscription ends with its access', () => {
  /** Posts a lead of `world` and answers what each agent heard of it on the channel within 2.5 s. */
  async function heardOfNextLead(
    client: ApiClient,
    world: Awaited<ReturnType<typeof livePublisher>>,
    agents: LiveAgent[]
  ) {
    const channel = liveChannel(world.publisher.id)
    const before = agents.map((agent) => agent.messages.length)
    const lead = await client
      .post('/v1/leads')
      .bearerToken(world.key)
      .json(leadBody(world.publisher.slug))
    if (lead.status() !== 201) throw new Error(`lead refused: ${lead.text()}`)
    await new Promise((resolve) => setTimeout(resolve, 2500))
    return agents.map(
      (agent, index) =>
        agent.messages.slice(before[index]).filter((message) => message.channel === channel).length
    )
  }

  test('signing out ends the session’s subscription at once', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { mine, agent } = await twoPublishers(cleanup)
    assert.equal(await agent.subscribe(liveChannel(mine.publisher.id)), 204)
    assert.deepEqual(await heardOfNextLead(client, mine, [agent]), [1])

    const signedOut = await agent.submit('POST', '/logout')
    assert.equal(signedOut.location, '/login')
    // The stream opened with the old cookie is still open; it hears nothing more.
    assert.deepEqual(await heardOfNextLead(client, mine, [agent]), [0])
  })

  test('a permission taken away, a user disabled or a session revoked elsewhere ends only that subscription', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { mine, agent: keeper } = await twoPublishers(cleanup)
    const channel = liveChannel(mine.publisher.id)
    const agents = [keeper]
    for (let i = 0; i < 3; i++) {
      const agent = await publisherAgent(mine.publisher.id)
      cleanup(() => agent.close())
      await agent.openStream()
      agents.push(agent)
    }
    for (const agent of agents) assert.equal(await agent.subscribe(channel), 204)
    assert.deepEqual(await heardOfNextLead(client, mine, agents), [1, 1, 1, 1])

    const [readerless, disabled, revoked] = agents.slice(1).map((agent) => agent.user!)
    readerless.permissions = ['submit']
    await readerless.save()
    disabled.disabledAt = DateTime.utc()
    await disabled.save()
    await db.from('user_sessions').where('user_id', revoked.id).update({ revoked_at: new Date() })

    assert.equal(await recheckLiveAccess(), 3)
    assert.deepEqual(await heardOfNextLead(client, mine, agents), [1, 0, 0, 0])
  })
})

test.group('Reports / live figures only for dashboards someone has open', () => {
  /** The channels broadcast to in this process while `work` runs and `ms` after. */
  async function broadcastsDuring(work: () => void, ms = 800) {
    const channels: string[] = []
    const stop = transmit.on('broadcast', ({ channel }) => void channels.push(channel))
    work()
    await new Promise((resolve) => setTimeout(resolve, ms))
    stop()
    return channels
  }

  test('a publisher nobody watches gets no computation; one watched in this process or another does', async ({
    assert,
    cleanup,
  }) => {
    const { mine, theirs, agent } = await twoPublishers(cleanup)
    const elsewhere = await livePublisher()
    const mineChannel = liveChannel(mine.publisher.id)
    assert.equal(await agent.subscribe(mineChannel), 204)
    // Another process's page of `elsewhere`, and a dead process's lapsed mark of `theirs`.
    await redis.zadd(
      WATCHED_PUBLISHERS_KEY,
      Date.now() + 30_000,
      elsewhere.publisher.id,
      Date.now() - 1,
      theirs.publisher.id
    )
    await new Promise((resolve) => setTimeout(resolve, 1100))

    const ids = [mine, theirs, elsewhere].map(({ publisher }) => publisher.id)
    assert.deepEqual(await watchedAmong(ids), [mine.publisher.id, elsewhere.publisher.id])
    const channels = await broadcastsDuring(() => ids.forEach((id) => announceLeads(id, 'live')))
    assert.sameMembers(channels, [mineChannel, liveChannel(elsewhere.publisher.id)])
    assert.equal((await agent.heard(mineChannel)).length, 1)
    // The page's own mark lives in Redis for the other processes, and lapses if nobody renews it.
    const until = Number(await redis.zscore(WATCHED_PUBLISHERS_KEY, mine.publisher.id))
    assert.closeTo(until - Date.now(), 30_000, 2_000)
  })

  test('the access check renews the marks of the pages still open, not of the ones it ends', async ({
    assert,
    cleanup,
  }) => {
    const { mine, theirs, agent } = await twoPublishers(cleanup)
    assert.equal(await agent.subscribe(liveChannel(mine.publisher.id)), 204)
    // A page of the other publisher, whose session is then revoked: the check ends it.
    const ended = await publisherAgent(theirs.publisher.id)
    cleanup(() => ended.close())
    await ended.openStream()
    assert.equal(await ended.subscribe(liveChannel(theirs.publisher.id)), 204)
    await db
      .from('user_sessions')
      .where('user_id', ended.user!.id)
      .update({ revoked_at: new Date() })
    // Both marks as a page left 30 s ago would have them.
    const lapsed = Date.now() - 1
    await redis.zadd(WATCHED_PUBLISHERS_KEY, lapsed, mine.publisher.id, lapsed, theirs.publisher.id)

    // It ends the revoked page, unless the worker's own clock in this process got there first.
    assert.oneOf(await recheckLiveAccess(), [0, 1])
    const renewed = Number(await redis.zscore(WATCHED_PUBLISHERS_KEY, mine.publisher.id))
    assert.isAbove(renewed, Date.now() + 25_000)
    // The ended page's mark is not renewed (and a renewal clears lapsed marks).
    assert.isNull(await redis.zscore(WATCHED_PUBLISHERS_KEY, theirs.publisher.id))
  })
})
