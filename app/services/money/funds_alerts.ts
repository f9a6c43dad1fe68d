import app from '@adonisjs/core/services/app'
import { appUrl } from '#config/app'
import { sendBranded } from '#mails/branded_mail'
import { PLATFORM_BRAND } from '#services/catalogue/branding_service'
import OutboxService from '#services/webhooks/outbox_service'
import { transaction } from '#services/sql/transaction'

/** How much of its funds a buyer has used, in percent, from `public.buyer_funds f`. */
const USED_PERCENT = `CASE WHEN f.mode = 'credit'
    THEN (f.reserved_cents - f.balance_cents) * 100 / nullif(f.credit_limit_cents, 0)
    ELSE (f.funded_cents - (f.balance_cents - f.reserved_cents)) * 100 / nullif(f.funded_cents, 0) END`

type Due = {
  buyer_id: string
  buyer_name: string
  contact_email: string
  currency: string
  mode: 'prepaid' | 'credit'
  threshold: 80 | 100
  balance_cents: number
  credit_limit_cents: number
  reserved_cents: number
}

/**
 * `buyer.funds_low` (DESIGN §16): once a buyer has used 80 % of its funds (a prepaid balance
 * since its last top-up, or its credit limit) and again at 100 %, an event to its endpoints and
 * the operator's and an e-mail to its contact. Each threshold once until a top-up or a new
 * billing mode resets it. The settlement clock runs this each turn; one row locked per buyer,
 * so two workers never send one alert twice.
 */
export async function alertLowFunds(now = new Date()) {
  const outbox = await app.container.make(OutboxService)
  const due = await transaction(async (trx) => {
    const result = await trx.rawQuery(
      `WITH used AS (
         SELECT f.buyer_id, f.currency, ${USED_PERCENT} AS percent FROM public.buyer_funds f
          WHERE f.credit_limit_cents > 0 OR f.funded_cents > 0),
       due AS (
         SELECT f.buyer_id, f.currency, CASE WHEN u.percent >= 100 THEN 100 ELSE 80 END AS threshold
           FROM public.buyer_funds f JOIN used u USING (buyer_id, currency)
          WHERE u.percent >= 80
            AND coalesce(f.alerted_percent, 0) < CASE WHEN u.percent >= 100 THEN 100 ELSE 80 END
          FOR UPDATE OF f SKIP LOCKED)
       UPDATE public.buyer_funds f SET alerted_percent = d.threshold
         FROM due d, public.buyers b
        WHERE f.buyer_id = d.buyer_id AND f.currency = d.currency AND b.id = f.buyer_id
       RETURNING f.buyer_id, b.name AS buyer_name, b.contact_email, f.currency, f.mode,
                 d.threshold, f.balance_cents::int, f.credit_limit_cents::int, f.reserved_cents::int`
    )
    const rows = result.rows as Due[]
    await outbox.publish(
      trx,
      rows.map((row) => ({
        type: 'buyer.funds_low',
        publisherId: null,
        buyerId: row.buyer_id,
        environment: 'live' as const,
        data: {
          buyer_id: row.buyer_id,
          currency: row.currency,
          mode: row.mode,
          threshold_percent: row.threshold,
          balance_cents: row.balance_cents,
          credit_limit_cents: row.credit_limit_cents,
          reserved_cents: row.reserved_cents,
          available_cents: row.balance_cents + row.credit_limit_cents - row.reserved_cents,
        },
      })),
      now
    )
    return rows
  })
  for (const row of due) await mailAlert(row)
  return due.length
}

function mailAlert(row: Due) {
  const amount = (cents: number) => `${(cents / 100).toFixed(2)} ${row.currency}`
  const available = row.balance_cents + row.credit_limit_cents - row.reserved_cents
  const used = row.threshold === 100 ? 'all' : '80 %'
  return sendBranded(
    PLATFORM_BRAND,
    {
      to: row.contact_email,
      subject: `${row.buyer_name}: you have used ${used} of your funds`,
      heading: row.threshold === 100 ? 'Your funds are used up' : 'Your funds are running low',
      paragraphs: [
        `You have used ${used} of your ${row.mode === 'credit' ? 'credit limit' : 'balance since your last top-up'}.`,
        row.threshold === 100
          ? 'No new leads can be sold to you until you top up or your credit limit is raised.'
          : 'When they are used up, no new leads can be sold to you until you top up.',
      ],
      facts: [
        [
          row.mode === 'credit' ? 'Credit limit' : 'Balance',
          amount(row.mode === 'credit' ? row.credit_limit_cents : row.balance_cents),
        ],
        ['Available', amount(available)],
      ],
      action: { label: 'Open your portal', url: `${appUrl}/` },
    },
    { buyer_id: row.buyer_id, mail: 'funds_low' }
  )
}
