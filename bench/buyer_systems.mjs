// Buyers' own systems for bench:sale and bench:auction, in a process of their own so their event
// loop is not the one being measured: one local HTTP server per buyer, answering posts (and pings)
// after the delay its plan gives, rejecting a share of posts, leaving a share of pings unanswered
// past their timeout. Every ping body is checked for the lead's contact details: those of the
// bench leads' shape (name, e-mail, phone) and those its own post later carried.
// Plan (argv[2], JSON): { systems: [{ delaysMs: [..], rejectRatio, pingTimeoutRatio, bid: [min, max] }] }.
// IPC: sends { ports } once listening; answers 'report' with { posts, pings }.
import http from 'node:http'

const plan = JSON.parse(process.argv[2])
/** [system, lead_id, received at (ms, epoch), accepted 0|1] */
const posts = []
/** Per lead, the ping bodies it sent (to check against its post's contact details). */
const pingBodies = new Map()
const pings = { received: 0, unanswered: 0, bids: 0, with_contact: 0, examples: [] }
// The bench leads' shape (bench/bench_lead.ts): a name, an e-mail, a +31 6 phone. (Not a bare
// run of digits: the ping's lead_id, a UUID, may hold one.)
const CONTACT = /Jansen|@|\+316\d/

const pick = (list) => list[Math.floor(Math.random() * list.length)]
const later = (ms, fn) => (ms > 0 ? setTimeout(fn, ms) : fn())
const answer = (response, body) =>
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body))

function serve(system, index) {
  let bids = 0
  return http.createServer((request, response) => {
    const chunks = []
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      const at = Date.now()
      const raw = Buffer.concat(chunks).toString('utf8')
      let body = {}
      try {
        body = JSON.parse(raw)
      } catch {}
      const delay = pick(system.delaysMs)
      if (request.url.endsWith('/ping')) {
        pings.received++
        if (CONTACT.test(raw)) {
          pings.with_contact++
          if (pings.examples.length < 3) pings.examples.push(raw)
        }
        const seen = pingBodies.get(body.lead_id) ?? []
        seen.push(raw)
        pingBodies.set(body.lead_id, seen)
        if (Math.random() < (system.pingTimeoutRatio ?? 0)) {
          // Answered long after any ping timeout Leadgate allows (5 s at most).
          pings.unanswered++
          return later(6000, () => answer(response, { bid: 0 }))
        }
        const [min, max] = system.bid
        const cents = min + Math.floor(Math.random() * (max - min))
        pings.bids++
        return later(delay, () => answer(response, { bid: cents, bid_id: `b${index}-${++bids}` }))
      }
      // A post: the full lead. Its contact details must not have been in any of its pings.
      const contact = [body.name, body.email, body.phone].filter(Boolean)
      for (const ping of pingBodies.get(body.lead_id) ?? []) {
        if (contact.some((value) => ping.includes(value))) {
          pings.with_contact++
          if (pings.examples.length < 3) pings.examples.push(ping)
        }
      }
      const accepted = Math.random() >= system.rejectRatio
      posts.push([index, body.lead_id ?? null, at, accepted ? 1 : 0])
      later(delay, () =>
        answer(
          response,
          accepted
            ? { result: 'ok', id: `${index}-${posts.length}` }
            : { result: 'rejected', reason: 'Out of area' }
        )
      )
    })
  })
}

const servers = plan.systems.map(serve)
await Promise.all(
  servers.map((server) => {
    server.keepAliveTimeout = 60_000
    return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  })
)
process.send({ ports: servers.map((server) => server.address().port) })
process.on('message', (message) => {
  if (message === 'report') process.send({ posts: posts.splice(0), pings })
})
process.on('disconnect', () => process.exit(0))
