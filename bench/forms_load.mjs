// The load generator for `npm run bench:forms`, in its own process like
// bench/intake_load.mjs: page views, then submissions, each at a fixed rate.
// Reads its plan as JSON from argv[2]; prints its figures as one JSON line.
import { openLoop } from './open_loop.mjs'

const plan = JSON.parse(process.argv[2])
const page = `/f/${plan.slug}`
let serial = 0

/** Tokens of served pages (a consumer submits the page it was served). */
async function servedTokens(count) {
  const tokens = []
  for (let i = 0; i < count; i++) {
    const html = await (await fetch(new URL(page, plan.baseUrl))).text()
    tokens.push(html.match(/name="form_token" value="([^"]+)"/)[1])
  }
  return tokens
}

/** ~90% complete answers, ~10% with an e-mail address to fix (the page comes back, 422). */
function submission(tokens) {
  serial++
  const n = String((process.pid * 7919 + serial) % 10_000_000).padStart(7, '0')
  const body = new URLSearchParams({
    form_token: tokens[serial % tokens.length],
    started: 'yes',
    website: '',
    name: 'Jan Jansen',
    email: serial % 10 === 9 ? 'not-an-address' : `form.${process.pid}.${serial}@example.nl`,
    phone: `+3161${n}`,
    postal_code: '1012 AB',
    consent: 'yes',
  }).toString()
  return {
    path: page,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  }
}

const tokens = await servedTokens(50)
const results = []
for (const step of plan.steps) {
  const cpu = process.cpuUsage()
  const result =
    step.name === 'views'
      ? await openLoop(plan.baseUrl, step, () => ({ path: page, method: 'GET', headers: {} }), 200)
      : await openLoop(plan.baseUrl, step, () => submission(tokens), 303)
  const used = process.cpuUsage(cpu)
  results.push({ ...result, cpu_ms: (used.user + used.system) / 1000 })
}
console.log(JSON.stringify(results))
