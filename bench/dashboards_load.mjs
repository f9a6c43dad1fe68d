// The two load processes of `npm run bench:dashboards`, each its own event loop:
//   node bench/dashboards_load.mjs dashboards '<plan>'  — signed-in publisher users, each
//     with several dashboard tabs open over server-sent events, taking the pushed figures as
//     the page does (and reloading, as the page does, when a message carries none);
//   node bench/dashboards_load.mjs leads '<plan>'  — leads posted at a fixed rate.
// Both talk to the command over IPC: "ready", then on "report" their records, then exit.
import { randomUUID } from 'node:crypto'
import { openLoop } from './open_loop.mjs'
import { benchLeadBody } from './bench_lead.ts'

const [mode, planText] = process.argv.slice(2)
const plan = JSON.parse(planText)

/** As inertia/components/reports/use_live_refresh.ts: at most one reload a second, one at a time. */
const MIN_GAP_MS = 1000
const PARTIAL = { component: 'reports/live', data: 'report,trend,settlement' }

class Session {
  cookies = new Map()
  version = ''

  constructor(baseUrl) {
    this.baseUrl = baseUrl
  }

  cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ')
  }

  async send(method, path, { headers = {}, body } = {}) {
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      redirect: 'manual',
      headers: { cookie: this.cookieHeader(), ...headers },
      body,
    })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';')
      const at = pair.indexOf('=')
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
    return response
  }

  inertiaHeaders() {
    return {
      'x-inertia': 'true',
      'x-requested-with': 'XMLHttpRequest',
      'x-inertia-version': this.version,
    }
  }

  async signIn(email, password) {
    await (await this.send('GET', '/login')).text()
    const answer = await this.send('POST', '/login', {
      headers: {
        ...this.inertiaHeaders(),
        'content-type': 'application/json',
        'x-xsrf-token': decodeURIComponent(this.cookies.get('XSRF-TOKEN') ?? ''),
      },
      body: JSON.stringify({ email, password }),
    })
    await answer.text()
    if (answer.status !== 302 && answer.status !== 303)
      throw new Error(`sign-in answered ${answer.status}`)
    const page = await this.send('GET', '/publisher/dashboard', { headers: this.inertiaHeaders() })
    if (page.status === 409) this.version = page.headers.get('x-inertia-version') ?? ''
    else this.version = (await page.json()).version ?? ''
    if (page.status === 409) await page.text()
  }
}

/**
 * One open dashboard: its own event stream and subscription. A message with figures is shown
 * as it is (recorded as [receivedAt, computedAt]); one without makes it reload its figures.
 */
class Tab {
  refreshes = []
  pushes = []
  messages = 0
  reloading = false
  again = false
  timer = undefined
  lastStart = 0
  abort = new AbortController()

  constructor(session, channel) {
    this.session = session
    this.channel = channel
    this.uid = randomUUID()
  }

  async open() {
    const response = await fetch(
      new URL(`/__transmit/events?uid=${this.uid}`, this.session.baseUrl),
      {
        headers: { cookie: this.session.cookieHeader(), accept: 'text/event-stream' },
        signal: this.abort.signal,
      }
    )
    if (response.status !== 200) throw new Error(`event stream answered ${response.status}`)
    void this.read(response.body.pipeThrough(new TextDecoderStream()).getReader())
    const subscribed = await this.session.send('POST', '/__transmit/subscribe', {
      headers: {
        'content-type': 'application/json',
        'x-xsrf-token': decodeURIComponent(this.session.cookies.get('XSRF-TOKEN') ?? ''),
      },
      body: JSON.stringify({ uid: this.uid, channel: this.channel }),
    })
    await subscribed.text()
    if (subscribed.status !== 204) throw new Error(`subscribe answered ${subscribed.status}`)
  }

  async read(reader) {
    let buffer = ''
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        buffer += value
        let end
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const event = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('')
          if (data) this.heard(data)
        }
      }
    } catch {
      // Closed at the end of the run.
    }
  }

  /** As use_live_refresh.ts: the figures replace the page's, else a throttled reload. */
  heard(data) {
    const receivedAt = Date.now()
    let message
    try {
      message = JSON.parse(data)
    } catch {}
    // Transmit's own pings come on the same stream; the page's client never hands them over.
    if (message?.channel !== this.channel) return
    this.messages++
    const payload = message.payload
    if (payload?.environment && payload.environment !== 'live') return
    const computedAt = Date.parse(payload?.computed_at ?? '')
    if (payload?.figures && computedAt) {
      this.again = false
      clearTimeout(this.timer)
      this.timer = undefined
      this.pushes.push([receivedAt, computedAt])
      return
    }
    this.refresh()
  }

  refresh() {
    if (this.reloading) return void (this.again = true)
    const wait = this.lastStart + MIN_GAP_MS - Date.now()
    if (wait > 0) {
      this.again = true
      this.timer ??= setTimeout(() => {
        this.timer = undefined
        if (this.again) this.refresh()
      }, wait)
      return
    }
    this.again = false
    this.reloading = true
    const start = Date.now()
    this.lastStart = start
    this.session
      .send('GET', '/publisher/dashboard', {
        headers: {
          ...this.session.inertiaHeaders(),
          'x-inertia-partial-component': PARTIAL.component,
          'x-inertia-partial-data': PARTIAL.data,
        },
      })
      .then(async (response) => {
        await response.arrayBuffer()
        this.refreshes.push([start, Date.now(), response.status])
      })
      .catch(() => this.refreshes.push([start, Date.now(), 0]))
      .finally(() => {
        this.reloading = false
        if (this.again) this.refresh()
      })
  }

  close() {
    clearTimeout(this.timer)
    this.abort.abort()
  }
}

async function dashboards() {
  const tabs = []
  for (const user of plan.users) {
    const session = new Session(plan.baseUrl)
    await session.signIn(user.email, user.password)
    for (let i = 0; i < plan.tabsPerUser; i++) {
      const tab = new Tab(session, `publishers/${user.publisherId}/live`)
      tab.publisher = user.publisherIndex
      await tab.open()
      tabs.push(tab)
    }
  }
  process.send({ ready: tabs.length })
  process.on('message', () => {
    for (const tab of tabs) tab.close()
    process.send(
      {
        tabs: tabs.map((tab) => ({
          publisher: tab.publisher,
          messages: tab.messages,
          pushes: tab.pushes,
          refreshes: tab.refreshes,
        })),
      },
      () => process.exit(0)
    )
  })
}

async function leads() {
  let serial = 0
  const bySlug = new Map(plan.publishers.map((publisher, index) => [publisher.slug, index]))
  const records = []
  const next = () => {
    serial++
    const publisher = plan.publishers[serial % plan.publishers.length]
    return {
      path: '/v1/leads',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'authorization': `Bearer ${publisher.key}` },
      body: JSON.stringify(benchLeadBody(publisher.slug, serial)),
    }
  }
  const onAnswer = (request, status, text) => {
    const answeredAt = Date.now()
    const publisher = bySlug.get(JSON.parse(request.body).publisher)
    let createdAt = null
    try {
      createdAt = Date.parse(JSON.parse(text).created_at) || null
    } catch {}
    records.push([publisher, createdAt, answeredAt, status])
  }
  process.send({ ready: true })
  await new Promise((resolve) => process.once('message', resolve))
  const figures = await openLoop(
    plan.baseUrl,
    {
      name: 'leads',
      rate: plan.rate,
      duration: plan.duration,
      connections: plan.connections,
      onAnswer,
    },
    next,
    201
  )
  process.send({ figures, records }, () => process.exit(0))
}

await (mode === 'dashboards' ? dashboards() : leads())
