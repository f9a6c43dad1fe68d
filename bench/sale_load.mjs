// The load generator of bench:sale and bench:auction, run as its own process: valid leads at a
// fixed rate (an open loop, bench/open_loop.mjs) through POST /v1/leads with the publishers' keys.
// Plan (argv[2], JSON): { baseUrl, rate, duration, connections, publishers: [{ slug, key }] }.
// Prints one JSON line: the answers' figures, and each accepted lead as [id, answered at (epoch ms)].
import { openLoop } from './open_loop.mjs'
import { benchLeadBody } from './bench_lead.ts'

const plan = JSON.parse(process.argv[2])
const accepted = []
let serial = 0

const request = () => {
  serial++
  const publisher = plan.publishers[serial % plan.publishers.length]
  return {
    path: '/v1/leads',
    method: 'POST',
    headers: { 'content-type': 'application/json', 'authorization': `Bearer ${publisher.key}` },
    body: JSON.stringify(benchLeadBody(publisher.slug, serial)),
  }
}
const onAnswer = (_request, status, text) => {
  if (status !== 201) return
  const at = Date.now()
  try {
    accepted.push([JSON.parse(text).id, at])
  } catch {}
}

const cpu = process.cpuUsage()
const figures = await openLoop(
  plan.baseUrl,
  {
    name: 'fixed',
    rate: plan.rate,
    duration: plan.duration,
    connections: plan.connections,
    onAnswer,
  },
  request,
  201
)
const used = process.cpuUsage(cpu)
console.log(
  JSON.stringify({ figures: { ...figures, cpu_ms: (used.user + used.system) / 1000 }, accepted })
)
