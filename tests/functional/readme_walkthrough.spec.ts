import { test } from '@japa/runner'
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import app from '@adonisjs/core/services/app'
import emitter from '@adonisjs/core/services/emitter'
import db from '@adonisjs/lucid/services/db'
import services from '#config/services'
import { startSaleWorker } from '#services/selling/sale_worker'
import { startSettlementClock } from '#services/money/settlement_clock'
import { disableUnscopedRules } from '#tests/functional/routing/routing_support'

/**
 * The README's walkthrough, run as a reader runs it: every fenced `bash`
 * block between the walkthrough markers, in order, with `bash -euo pipefail`,
 * against the test server. The one change: an ace command runs as
 * `node ace …` rather than through npm.
 */
const NPM_ACE = 'npm run --silent ace --'
const NODE_ACE = 'node ace'

type Block = { script: string; statuses: number[] }
type Answer = { method: string; url: string; status: number }

/** The walkthrough's blocks, each with the HTTP statuses its comments promise (`# 201 {…}`). */
function walkthrough(readme: string): Block[] {
  const start = readme.indexOf('<!-- walkthrough:start -->')
  const end = readme.indexOf('<!-- walkthrough:end -->')
  if (start < 0 || end < start) throw new Error('README.md has no walkthrough:start/end markers')
  return [...readme.slice(start, end).matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map(([, body]) => ({
    script: body.replaceAll(NPM_ACE, NODE_ACE),
    statuses: [...body.matchAll(/^\s*# ([1-5]\d\d)\b/gm)].map(([, status]) => Number(status)),
  }))
}

/** `expected` appears in `actual` in the same order, other entries between allowed. */
function isSubsequence(expected: number[], actual: number[]) {
  let at = 0
  for (const status of actual) if (status === expected[at]) at++
  return at === expected.length
}

/**
 * Runs one block in its own bash. `set -a` exports what the block assigns,
 * and the state file carries it to the next block, as one terminal would.
 */
function runBlock(script: string, env: NodeJS.ProcessEnv) {
  const wrapped = [
    'set -a',
    '[ -s "$WALKTHROUGH_STATE" ] && . "$WALKTHROUGH_STATE"',
    script,
    'export -p > "$WALKTHROUGH_STATE"',
  ].join('\n')
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const bash = spawn('bash', ['-euo', 'pipefail', '-c', wrapped], { cwd: app.appRoot, env })
    let stdout = ''
    let stderr = ''
    bash.stdout.on('data', (chunk) => (stdout += chunk))
    bash.stderr.on('data', (chunk) => (stderr += chunk))
    bash.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

async function stateOf(file: string) {
  const state: Record<string, string> = {}
  for (const [, name, value] of (await readFile(file, 'utf8')).matchAll(
    /^declare -x (\w+)="(.*)"$/gm
  )) {
    state[name] = value
  }
  return state
}

test.group('README walkthrough', (group) => {
  let stopWorker: (() => Promise<void>) | undefined
  let workdir: string

  group.setup(async () => {
    // Rules other specs left scoped to nobody would compete for the walkthrough's lead.
    await disableUnscopedRules()
    // Routing is the worker's job, as under `npm run up`.
    stopWorker = await startSaleWorker({ sweep: false })
    // So is closing return windows (the settlement clock), every second here.
    const stopClock = startSettlementClock(1000)
    workdir = await mkdtemp(join(tmpdir(), 'leadgate-walkthrough-'))
    return async () => {
      await stopClock()
      await stopWorker?.()
      await rm(workdir, { recursive: true, force: true })
    }
  })

  test('every step answers what the README says: the lead is matched, its trail verifies, the money follows', async ({
    assert,
  }) => {
    const blocks = walkthrough(await readFile(app.makePath('README.md'), 'utf8'))
    assert.isAtLeast(blocks.length, 8)

    const stateFile = join(workdir, 'state')
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // The walkthrough's `node` is the one running the tests.
      PATH: `${dirname(process.execPath)}:${process.env.PATH}`,
      BASE: `http://${process.env.HOST ?? 'localhost'}:${process.env.PORT ?? 3334}`,
      // `node ace operator:create` must write where this server reads.
      NODE_ENV: 'test',
      DATABASE_URL: services.databaseUrl.href,
      TEST_DATABASE_NAME: services.databaseName,
      REDIS_URL: services.redisUrl.href,
      WALKTHROUGH_STATE: stateFile,
    }

    const answers: Answer[] = []
    const record = ({ ctx }: { ctx: any }) =>
      answers.push({
        method: ctx.request.method(),
        url: ctx.request.url(),
        status: ctx.response.getStatus(),
      })
    emitter.on('http:request_completed', record)
    let verified = { stdout: '' }
    try {
      for (const [index, block] of blocks.entries()) {
        answers.length = 0
        const run = await runBlock(block.script, env)
        // The server records an answer once it is sent; let the last one land.
        await new Promise((resolve) => setTimeout(resolve, 50))
        const where = `walkthrough block ${index}:\n${block.script}\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}\n--- answers\n${JSON.stringify(answers)}`
        assert.equal(run.code, 0, `failed: ${where}`)
        const statuses = answers.map((answer) => answer.status)
        if (block.script.includes('curl')) {
          assert.isAbove(block.statuses.length, 0, `documents no status: ${where}`)
        }
        assert.isTrue(
          isSubsequence(block.statuses, statuses),
          `promised ${block.statuses.join(', ')}, answered ${statuses.join(', ')}: ${where}`
        )
        const unexpected = statuses.filter((s) => s >= 400 && !block.statuses.includes(s))
        assert.deepEqual(unexpected, [], `an error the README does not show: ${where}`)
        if (block.script.includes('/v1/audit-logs/verify')) verified = run
      }
    } finally {
      emitter.off('http:request_completed', record)
    }

    const state = await stateOf(stateFile)
    // Sold to the buyer, then returned by it (step 11).
    const fact = await db.from('lead_facts').where('lead_id', state.LEAD_ID).firstOrFail()
    assert.equal(fact.status, 'returned')
    assert.equal(fact.buyer_id, state.BUYER_ID)
    const verification = JSON.parse(verified.stdout)
    assert.deepInclude(verification, { lead_id: state.LEAD_ID, valid: true, broken_at: null })

    // The returned lead and the paid one: the money followed, in the ledger and in the events.
    assert.equal(fact.settlement, 'returned')
    const paid = await db.from('lead_facts').where('lead_id', state.PAID_LEAD).firstOrFail()
    assert.equal(paid.settlement, 'paid_out')
    const kinds = await db
      .from('outbox_events')
      .where('type', 'payout.processed')
      .whereIn('lead_id', [state.PAID_LEAD])
      .select(db.raw("payload->'data'->>'kind' AS kind"))
    assert.include(
      kinds.map((row) => row.kind),
      'buyer_acceptance'
    )
    const payout = await db
      .from('outbox_events')
      .where('type', 'payout.processed')
      .where('publisher_id', state.PUBLISHER_ID)
      .whereRaw("payload->'data'->>'kind' = 'publisher_payout'")
      .first()
    assert.exists(payout)

    // The consumer's submission on the hosted form is a lead of the publisher, with the page's wording.
    const formLead = await db
      .from('lead_facts')
      .where('publisher_id', state.PUBLISHER_ID)
      .where('channel', 'form')
      .firstOrFail()
    assert.include(['accepted', 'matched'], formLead.status)
  }).timeout(180_000)
})
