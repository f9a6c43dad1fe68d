#!/usr/bin/env node
// `npm test`: the three Japa suites split across lanes that run at once, each a `node ace test`
// with its own database, HTTP and SMTP ports and Redis database (the isolation a second run on one
// machine already had), so the suite's waiting overlaps. Any argument runs `node ace test` as
// given, in one process: `npm test -- functional --files tests/functional/intake/leads.spec.ts`.
// Lanes are balanced by tests/durations.json (each spec file's measured time);
// `TEST_DURATIONS=write npm test` measures them again. TEST_LANES sets the number (2).
import { spawn } from 'node:child_process'
import { globSync, readFileSync, writeFileSync } from 'node:fs'
import { parseEnv } from 'node:util'

const DURATIONS = 'tests/durations.json'
/** Every spec file under tests/: the suites of adonisrc.ts decide which suite each belongs to. */
const SPECS = 'tests/**/*.spec.{ts,js}'
/** The test run's own ports, which the second lane shifts. */
const TEST_ENV = parseEnv(readFileSync('.env.test', 'utf8'))

const aceTest = (args, options) => spawn(process.execPath, ['ace', 'test', ...args], options)

if (process.argv.length > 2) {
  const child = aceTest(process.argv.slice(2), { stdio: 'inherit' })
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
} else {
  await runLanes(Number(process.env.TEST_LANES ?? 2))
}

/** Longest first, each file to the lane with the least time so far. */
function plan(lanes) {
  const files = globSync(SPECS).sort()
  let measured = {}
  try {
    measured = JSON.parse(readFileSync(DURATIONS, 'utf8'))
  } catch {}
  const known = Object.values(measured)
  const guess = known.length > 0 ? known.reduce((sum, ms) => sum + ms, 0) / known.length : 1
  const weighted = files.map((file) => [file, measured[file] ?? guess])
  weighted.sort((a, b) => b[1] - a[1])
  const plans = Array.from({ length: lanes }, () => ({ files: [], ms: 0 }))
  for (const [file, ms] of weighted) {
    const lane = plans.reduce((least, each) => (each.ms < least.ms ? each : least))
    lane.files.push(file)
    lane.ms += ms
  }
  return plans.filter((lane) => lane.files.length > 0)
}

/** Lane 0 keeps the defaults; the others shift database name, ports and Redis database. */
function laneEnv(lane) {
  if (lane === 0) return process.env
  const redis = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0')
  const db = Number(redis.pathname.slice(1) || 0)
  redis.pathname = `/${(db + lane) % 16}`
  return {
    ...process.env,
    TEST_DATABASE_NAME: `${process.env.TEST_DATABASE_NAME ?? 'leadgate_test'}_lane${lane}`,
    PORT: String(Number(process.env.PORT ?? TEST_ENV.PORT) + 100 * lane),
    SMTP_PORT: String(Number(process.env.SMTP_PORT ?? TEST_ENV.SMTP_PORT) + 100 * lane),
    REDIS_URL: redis.href,
  }
}

async function runLanes(count) {
  const plans = plan(count)
  const started = Date.now()
  const children = new Set()
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const child of children) child.kill(signal)
      process.exit(1)
    })
  }
  const lanes = []
  for (const [index, lane] of plans.entries()) {
    const tag = `lane ${index + 1} │ `
    console.log(`${tag}${lane.files.length} spec files, about ${Math.round(lane.ms / 60_000)} min`)
    const child = aceTest(['--files', lane.files.join(',')], { env: laneEnv(index), stdio: 'pipe' })
    children.add(child)
    let output = ''
    let partial = ''
    let serving
    // The next lane starts once this one runs tests: its code generation is written and its Vite
    // holds its WebSocket port, so the next picks another (vite.config.ts).
    const servingNow = new Promise((resolve) => (serving = resolve))
    const relay = (chunk) => {
      output += chunk
      const lines = (partial + chunk).split('\n')
      partial = lines.pop()
      for (const line of lines) {
        process.stdout.write(`${tag}${line}\n`)
        if (/^\s*[✔✖]/.test(line)) serving()
      }
    }
    child.stdout.setEncoding('utf8').on('data', relay)
    child.stderr.setEncoding('utf8').on('data', relay)
    const done = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        children.delete(child)
        if (partial) process.stdout.write(`${tag}${partial}\n`)
        serving()
        resolve({ index, code: code ?? (signal ? 1 : 0), output })
      })
    )
    lanes.push(done)
    await servingNow
  }
  const outputs = await Promise.all(lanes)
  // Each lane's closing summary (and its failures) again, whole, away from the other lane's lines.
  for (const { index, code, output } of outputs) {
    const summary = output.lastIndexOf(code === 0 ? ' PASSED ' : ' FAILED ')
    console.log(`\n── lane ${index + 1}: exit ${code} ──`)
    console.log(summary >= 0 ? output.slice(summary) : output.slice(-4000))
  }
  console.log(`all lanes done in ${Math.round((Date.now() - started) / 1000)} s`)
  if (process.env.TEST_DURATIONS === 'write') writeDurations(outputs.map((lane) => lane.output))
  process.exit(outputs.some((lane) => lane.code !== 0) ? 1 : 0)
}

/** Sums each spec file's test times from the spec reporter's lines. */
function writeDurations(outputs) {
  const durations = {}
  const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, '')
  for (const output of outputs) {
    let file = null
    for (const line of plain(output).split('\n')) {
      const header = /\((tests\/[^)]+\.spec\.(?:ts|js))\)\s*$/.exec(line)
      if (header) file = header[1]
      // "(43.06ms)", "(2s)", "(1m 5s)"
      const timed = /[✔✖].*\(((?:\d+(?:\.\d+)?(?:ms|s|m) ?)+)\)\s*$/.exec(line)
      if (file && timed) durations[file] = (durations[file] ?? 0) + milliseconds(timed[1])
    }
  }
  const sorted = Object.fromEntries(
    Object.entries(durations)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, ms]) => [file, Math.round(ms)])
  )
  writeFileSync(DURATIONS, `${JSON.stringify(sorted, null, 2)}\n`)
  console.log(`wrote ${DURATIONS}: ${Object.keys(sorted).length} spec files`)
}

function milliseconds(text) {
  const scale = { ms: 1, s: 1000, m: 60_000 }
  return [...text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m)/g)].reduce(
    (sum, [, value, unit]) => sum + Number(value) * scale[unit],
    0
  )
}
