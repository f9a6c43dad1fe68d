// The load generator for `npm run bench:intake`, run as its own process so it
// does not share an event loop with the server it measures. Reads its plan as
// JSON from argv[2] and prints its figures as one JSON line.
import http from 'node:http'
import autocannon from 'autocannon'

const plan = JSON.parse(process.argv[2])
const sent = []
let serial = 0

/** ~80% valid, ~10% failing a rule (bad phone), ~10% duplicates of a lead already sent. */
function nextLead() {
  serial++
  const publisher = plan.publishers[serial % plan.publishers.length]
  const roll = serial % 10
  if (roll === 9 && sent.length > 0) {
    const earlier = sent[Math.floor(Math.random() * sent.length)]
    return { publisher: earlier.publisher, body: earlier.body }
  }
  // +31 61 followed by 7 digits is always a valid Dutch mobile number.
  const n = String((process.pid * 7919 + serial) % 10_000_000).padStart(7, '0')
  const body = {
    publisher: publisher.slug,
    contact: {
      name: 'Jan Jansen',
      email: `lead.${process.pid}.${serial}@example.nl`,
      phone: roll === 8 ? '0612' : `+3161${n}`,
      postal_code: '1012 AB',
      country: 'NL',
    },
    provenance: {
      source: 'facebook',
      campaign: 'bench',
      landing_page: 'https://energy.example/offer',
    },
    consent: {
      given: true,
      text: 'I agree that Demo Energy may contact me about my energy contract.',
      timestamp: new Date(Date.now() - 60_000).toISOString(),
      ip: '203.0.113.9',
    },
    attributes: { age: 30 + (serial % 40), homeowner: serial % 2 === 0 },
  }
  const lead = { publisher, body: JSON.stringify(body) }
  if (roll < 8 && sent.length < 5000) sent.push(lead)
  return lead
}

function percentiles(latencies) {
  latencies.sort((a, b) => a - b)
  const pct = (p) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? null
  return { p50_ms: pct(50), p95_ms: pct(95), p99_ms: pct(99) }
}

/**
 * A fixed rate as an open model: one request every 1/rate s, whether or not
 * earlier ones were answered, each timed from the moment it was due (so a
 * stalled server shows in the latencies instead of slowing the sender).
 * autocannon's own rate sends each connection's share at the start of
 * every second, i.e. one burst per second, which measures bursts instead.
 */
function openLoop(options) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections })
  const url = new URL(`${plan.baseUrl}/v1/leads`)
  const total = Math.round(options.rate * options.duration)
  const latencies = []
  const statuses = {}
  let errors = 0
  let settled = 0
  return new Promise((resolve) => {
    const start = performance.now()
    let due = 0
    const finish = () => {
      agent.destroy()
      const seconds = (performance.now() - start) / 1000
      resolve({
        mode: options.name,
        connections: options.connections,
        target_rate: options.rate,
        duration_s: options.duration,
        requests: latencies.length,
        statuses,
        accepted_per_s: (statuses['201'] ?? 0) / seconds,
        answered_per_s: latencies.length / seconds,
        ...percentiles(latencies),
        errors,
        timeouts: 0,
      })
    }
    const send = (dueAt) => {
      const lead = nextLead()
      const request = http.request(url, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'authorization': `Bearer ${lead.publisher.key}`,
          'content-length': Buffer.byteLength(lead.body),
        },
      })
      request.on('response', (response) => {
        response.resume()
        response.on('end', () => {
          statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1
          latencies.push(performance.now() - dueAt)
          if (++settled === total) finish()
        })
      })
      request.on('error', () => {
        errors++
        if (++settled === total) finish()
      })
      request.end(lead.body)
    }
    const tick = () => {
      const now = performance.now()
      while (due < total && start + (due * 1000) / options.rate <= now) {
        send(start + (due * 1000) / options.rate)
        due++
      }
      if (due < total) setTimeout(tick, 1)
    }
    tick()
  })
}

function run(options) {
  if (options.rate) return openLoop(options)
  const latencies = []
  const statuses = {}
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${plan.baseUrl}/v1/leads`,
        method: 'POST',
        connections: options.connections,
        duration: options.duration,
        requests: [
          {
            setupRequest(request) {
              const lead = nextLead()
              request.headers = {
                'content-type': 'application/json',
                'authorization': `Bearer ${lead.publisher.key}`,
              }
              request.body = lead.body
              return request
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error)
        const seconds = result.duration
        resolve({
          mode: options.name,
          connections: options.connections,
          target_rate: options.rate ?? null,
          duration_s: seconds,
          requests: latencies.length,
          statuses,
          accepted_per_s: (statuses['201'] ?? 0) / seconds,
          answered_per_s: latencies.length / seconds,
          ...percentiles(latencies),
          errors: result.errors,
          timeouts: result.timeouts,
        })
      }
    )
    instance.on('response', (_client, status, _bytes, responseTime) => {
      statuses[status] = (statuses[status] ?? 0) + 1
      latencies.push(responseTime)
    })
  })
}

const results = []
for (const step of plan.steps) {
  const cpu = process.cpuUsage()
  const result = await run(step)
  const used = process.cpuUsage(cpu)
  results.push({ ...result, cpu_ms: (used.user + used.system) / 1000 })
}
console.log(JSON.stringify(results))
