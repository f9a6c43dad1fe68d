// A webhook receiver for the benchmarks, run as its own process so that it does not share an
// event loop with the code being measured: answers 204 and remembers when each event arrived.
// Talks to its parent over IPC: sends { port } once listening; answers 'report' with the
// arrivals since the last report, each [webhook-id, arrival ms, signed 0|1, data.lead_id].
import http from 'node:http'

const arrivals = []
const server = http.createServer((request, response) => {
  const chunks = []
  request.on('data', (chunk) => chunks.push(chunk))
  request.on('end', () => {
    const at = Date.now()
    let leadId = null
    try {
      leadId = JSON.parse(Buffer.concat(chunks).toString()).data?.lead_id ?? null
    } catch {}
    const signed = request.headers['webhook-signature'] ? 1 : 0
    arrivals.push([request.headers['webhook-id'], at, signed, leadId])
    response.writeHead(204).end()
  })
})
server.keepAliveTimeout = 60000
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('message', (message) => {
  if (message === 'report') process.send({ arrivals: arrivals.splice(0) })
})
process.on('disconnect', () => process.exit(0))
