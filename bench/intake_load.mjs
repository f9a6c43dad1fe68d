// The load generator for `npm run bench:intake`, run as its own process so it
// does not share an event loop with the server it measures. Reads its plan as
// JSON from argv[2] and prints its figures as one JSON line.
import autocannon from 'autocannon'
import { openLoop, percentiles } from './open_loop.mjs'
import { benchLeadBody } from './bench_lead.ts'

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
  const body = benchLeadBody(publisher.slug, serial, { phone: roll === 8 ? '0612' : undefined })
  const lead = { publisher, body: JSON.stringify(body) }
  if (roll < 8 && sent.length < 5000) sent.push(lead)
  return lead
}

function run(options) {
  if (options.rate) {
    const request = () => {
      const lead = nextLead()
      return {
        path: '/v1/leads',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'authorization': `Bearer ${lead.publisher.key}`,
        },
        body: lead.body,
      }
    }
    return openLoop(plan.baseUrl, options, request, 201)
  }
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
