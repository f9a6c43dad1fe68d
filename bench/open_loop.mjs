// The open-model load loop the benchmarks share (bench/intake_load.mjs, bench/forms_load.mjs).
import http from 'node:http'

export function percentiles(latencies) {
  latencies.sort((a, b) => a - b)
  const pct = (p) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? null
  return { p50_ms: pct(50), p95_ms: pct(95), p99_ms: pct(99) }
}

/**
 * The seconds of the run with the slowest answers (by when each request was due): whether a p99
 * comes from a few stalls (a checkpoint, a pause) or from queueing spread over the whole run.
 */
export function slowestSeconds(timed, count = 5) {
  const seconds = new Map()
  for (const [second, ms] of timed) {
    const bucket = seconds.get(second) ?? { second, answers: 0, max_ms: 0, over_50ms: 0 }
    bucket.answers++
    bucket.max_ms = Math.max(bucket.max_ms, Math.round(ms))
    if (ms > 50) bucket.over_50ms++
    seconds.set(second, bucket)
  }
  return [...seconds.values()].sort((a, b) => b.max_ms - a.max_ms).slice(0, count)
}

/**
 * A fixed rate as an open model: one request every 1/rate s, whether or not
 * earlier ones were answered, each timed from the moment it was due (so a
 * stalled server shows in the latencies instead of slowing the sender).
 * autocannon's own rate sends each connection's share at the start of
 * every second, i.e. one burst per second, which measures bursts instead.
 * `next()` gives each request: `{ path, method, headers, body }`; `success`
 * is the status counted as throughput. `options.onAnswer(request, status, text)`,
 * when given, also receives each answer's body.
 */
export function openLoop(baseUrl, options, next, success) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections })
  const total = Math.round(options.rate * options.duration)
  const latencies = []
  const timed = []
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
        accepted_per_s: (statuses[String(success)] ?? 0) / seconds,
        answered_per_s: latencies.length / seconds,
        ...percentiles(latencies),
        slowest_seconds: slowestSeconds(timed),
        errors,
        timeouts: 0,
      })
    }
    const send = (dueAt) => {
      const { path, method, headers, body } = next()
      const request = http.request(new URL(path, baseUrl), {
        method,
        agent,
        headers: { ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
      })
      const requested = { path, method, headers, body }
      request.on('response', (response) => {
        const chunks = []
        if (options.onAnswer) response.on('data', (chunk) => chunks.push(chunk))
        else response.resume()
        response.on('end', () => {
          options.onAnswer?.(requested, response.statusCode, Buffer.concat(chunks).toString('utf8'))
          statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1
          const ms = performance.now() - dueAt
          latencies.push(ms)
          timed.push([Math.floor((dueAt - start) / 1000), ms])
          if (++settled === total) finish()
        })
      })
      request.on('error', () => {
        errors++
        if (++settled === total) finish()
      })
      request.end(body)
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
