import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import fc from 'fast-check'
import { DateTime } from 'luxon'
import Publisher from '#models/publisher'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import AcceptanceService from '#services/money/acceptance_service'
import { account, balancesOf, foldLedger, ledgerInsert, movement } from '#services/money/ledger'
import { makePayouts } from '#services/money/payout_maker'
import PayoutService from '#services/money/payout_service'
import type { Settlement } from '#services/money/sale_rows'
import { insertTogether } from '#services/sql/insert_together'
import { createLabel } from '#tests/support/fixtures'
import {
  acceptedLead,
  disableUnscopedRules,
  route,
} from '#tests/functional/routing/routing_support'
import { dateWindows, returnByHand, soldLead } from '#tests/support/money'

type Op =
  | { kind: 'sale'; final: boolean }
  | { kind: 'accept' | 'return' | 'paid' | 'failed'; pick: number }
  | { kind: 'run' }
  | { kind: 'adjust'; cents: number }
  | { kind: 'fold' }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('sale' as const), final: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('accept' as const), pick: fc.nat() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('return' as const), pick: fc.nat() }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'run' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('paid' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('failed' as const), pick: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('adjust' as const),
      cents: fc.integer({ min: -3000, max: 3000 }).filter((cents) => cents !== 0),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'fold' as const }) }
)

let periods = 0
/** Every run pays a period of its own, far enough ahead that every final sale belongs to it. */
const nextPeriod = () =>
  DateTime.fromISO('2031-01-01', { zone: 'utc' }).plus({ days: periods++ }).toISODate()!

const sum = (rows: { cents: string | number | null }[]) => Number(rows[0]?.cents ?? 0)

async function factsOfPublisher(publisherId: string) {
  return (await db
    .from('lead_facts as f')
    .where('f.publisher_id', publisherId)
    .whereNotNull('f.settlement')
    .orderBy('f.lead_id')
    .select('f.*')) as { lead_id: string; settlement: Settlement; payout_id: string | null }[]
}

async function payoutTotal(publisherId: string, statuses: string[]) {
  return sum(
    await db
      .from('payouts')
      .where('publisher_id', publisherId)
      .whereIn('status', statuses)
      .sum('amount_cents as cents')
  )
}

async function openPayouts(publisherId: string) {
  return db
    .from('payouts')
    .where('publisher_id', publisherId)
    .whereIn('status', ['scheduled', 'processing'])
    .orderBy('id')
}

/** Its return window closes: the clock makes the sale final. */
async function makeFinal(leadId: string) {
  const now = new Date()
  await dateWindows([leadId], new Date(now.getTime() - 1000))
  await (await app.container.make(AcceptanceService)).closeWindows(now, 500)
}

async function apply(client: ApiClient, world: Awaited<ReturnType<typeof soldLead>>, step: Op) {
  const publisherId = world.publisher.id
  const facts = await factsOfPublisher(publisherId)
  const pick = <T>(items: T[], index: number) => items[index % items.length]
  switch (step.kind) {
    case 'sale': {
      const leadId = await acceptedLead(client, world)
      const outcome = await route(leadId)
      if (outcome.outcome !== 'matched') throw new Error(`not sold: ${JSON.stringify(outcome)}`)
      if (step.final) await makeFinal(leadId)
      return
    }
    case 'accept': {
      const pending = facts.filter((fact) => fact.settlement === 'pending')
      if (pending.length === 0) return
      await makeFinal(pick(pending, step.pick).lead_id)
      return
    }
    case 'return': {
      const returnable = facts.filter((fact) => fact.settlement !== 'returned')
      if (returnable.length === 0) return
      const chosen = pick(returnable, step.pick)
      // What the disputes engine does when a dispute is upheld: out of pending, or a clawback.
      await returnByHand(chosen.lead_id, chosen.settlement === 'pending' ? 'pending' : 'payable')
      return
    }
    case 'run': {
      const label = await Publisher.findOrFail(publisherId)
      await makePayouts(
        {
          publisherId,
          labelId: label.labelId,
          periodEnd: nextPeriod(),
          minimumCents: 0,
          environment: 'live',
        },
        new Date()
      )
      return
    }
    case 'paid':
    case 'failed': {
      const open = await openPayouts(publisherId)
      if (open.length === 0) return
      const chosen = pick(open, step.pick)
      const payouts = await app.container.make(PayoutService)
      if (step.kind === 'paid') await payouts.markPaid(SYSTEM_OPERATOR, chosen.id, 'property')
      else await payouts.markFailed(SYSTEM_OPERATOR, chosen.id, 'property')
      return
    }
    case 'adjust': {
      await insertTogether(db.connection(), [
        ledgerInsert(
          movement(
            'adjustment',
            [
              [account.publisherPayable(publisherId), -step.cents],
              [account.adjustments, step.cents],
            ],
            { currency: 'EUR', publisherId, reference: 'property' }
          )
        ),
      ])
      return
    }
    case 'fold':
      await foldLedger(db.connection())
  }
}

test.group('Money / payouts: properties', (group) => {
  group.each.setup(() => disableUnscopedRules())

  test('random sales, acceptances, returns, payout runs, payments, failures and adjustments keep the books exact', async ({
    client,
    assert,
  }) => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 24 }), async (ops) => {
        const world = await soldLead(client, {
          priceCents: 2500,
          payoutCents: 1800,
          windowHours: 48,
        })
        const label = await createLabel()
        await Publisher.query().where('id', world.publisher.id).update({ labelId: label.id })
        const payable = account.publisherPayable(world.publisher.id)
        for (const step of ops) {
          await apply(client, world, step)

          // Every account's balance is its ledger sum, folded or not, and the books sum to zero.
          const sums = await db
            .from('ledger_entries')
            .groupBy('account', 'currency')
            .select('account', 'currency', db.raw('sum(amount_cents)::bigint AS cents'))
          const balances = await balancesOf(
            db.connection(),
            sums.map((row) => row.account)
          )
          const totals = new Map<string, number>()
          for (const row of sums) {
            const currency = row.currency.trim()
            assert.equal(
              balances.get(row.account)?.get(currency) ?? 0,
              Number(row.cents),
              `${row.account} after ${JSON.stringify(step)}`
            )
            totals.set(currency, (totals.get(currency) ?? 0) + Number(row.cents))
          }
          for (const [currency, total] of totals) assert.equal(total, 0, currency)

          // Each payout's lines add up to it; no sale is earned on two payouts still standing.
          const payouts = await db.from('payouts').where('publisher_id', world.publisher.id)
          for (const payout of payouts) {
            const lines = await db.from('payout_lines').where('payout_id', payout.id)
            assert.equal(
              lines.reduce((total, line) => total + Number(line.amount_cents), 0),
              Number(payout.amount_cents)
            )
            assert.isAbove(Number(payout.amount_cents), 0)
          }
          const earned = await db
            .from('payout_lines as l')
            .join('payouts as p', 'p.id', 'l.payout_id')
            .where('p.publisher_id', world.publisher.id)
            .whereNot('p.status', 'failed')
            .where('l.kind', 'earning')
            .select('l.lead_id')
          assert.equal(new Set(earned.map((line) => line.lead_id)).size, earned.length)

          // Paid plus still owed is what the publisher earned on final sales, plus adjustments.
          const balance = sum(
            await db.from('ledger_entries').where('account', payable).sum('amount_cents as cents')
          )
          const paid = await payoutTotal(world.publisher.id, ['paid'])
          const final = sum(
            await db
              .from('lead_facts')
              .where('publisher_id', world.publisher.id)
              .whereIn('settlement', ['payable', 'paid_out'])
              .sum('payout_cents as cents')
          )
          const adjusted = -sum(
            await db
              .from('ledger_entries')
              .where('account', payable)
              .where('kind', 'adjustment')
              .sum('amount_cents as cents')
          )
          assert.equal(paid - balance, final + adjusted)

          // A sale is paid out only by a paid payout.
          const facts = await factsOfPublisher(world.publisher.id)
          for (const fact of facts.filter((row) => row.settlement === 'paid_out')) {
            const payout = payouts.find((row) => row.id === fact.payout_id)
            assert.equal(payout?.status, 'paid')
          }

          // Right after a run, everything owed is on an open payout.
          if (step.kind === 'run') {
            const open = await payoutTotal(world.publisher.id, ['scheduled', 'processing'])
            assert.isAtMost(-balance - open, 0)
          }
        }
      }),
      { numRuns: 15 }
    )
  }).timeout(300_000)
})
