import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { uuidv7 } from 'uuidv7'
import type Buyer from '#models/buyer'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import { availableOf } from '#services/routing/funds'
import { transaction } from '#services/sql/transaction'

export type BillingInput = {
  mode: 'prepaid' | 'credit'
  credit_limit_cents?: number
  currency: string
}
export type TopUpInput = { amount_cents: number; reference: string; currency?: string }

type FundsRow = {
  buyer_id: string
  currency: string
  mode: 'prepaid' | 'credit'
  balance_cents: string | number
  credit_limit_cents: string | number
  reserved_cents: string | number
}

/** A buyer's funds as the API answers them (money in integer cents). */
export function fundsView(row: FundsRow | null) {
  if (!row) {
    return {
      mode: null,
      currency: null,
      balance_cents: 0,
      credit_limit_cents: 0,
      reserved_cents: 0,
      available_cents: null,
    }
  }
  const account = {
    balance_cents: Number(row.balance_cents),
    credit_limit_cents: Number(row.credit_limit_cents),
    reserved_cents: Number(row.reserved_cents),
  }
  return {
    mode: row.mode,
    currency: row.currency,
    ...account,
    available_cents: availableOf(account),
  }
}

/**
 * A buyer's funds (DESIGN §16; docs/money.md, "Buyer funds"): its billing mode per currency,
 * its balance, its top-ups. The sale reserves and spends them (routing/funds.ts); this keeps
 * what the operator sets and reads. A buyer without a billing mode is not limited.
 */
@inject()
export default class BuyerFundsService {
  constructor(protected accessLog: AccessLogService) {}

  async read(buyer: Buyer, currency?: string) {
    const query = db.from('buyer_funds').where('buyer_id', buyer.id).orderBy('updated_at', 'desc')
    if (currency) query.where('currency', currency)
    return fundsView((await query.first()) ?? null)
  }

  /** The buyer's top-ups, newest first (the portal's funds pages list them). */
  async topUps(buyer: Buyer, limit = 50) {
    const rows: {
      id: string
      amount_cents: string | number
      currency: string
      reference: string
      created_at: Date
    }[] = await db
      .from('buyer_top_ups')
      .where('buyer_id', buyer.id)
      .select('id', 'amount_cents', 'currency', 'reference', 'created_at')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
    return rows.map((row) => ({
      id: row.id,
      amount_cents: Number(row.amount_cents),
      currency: row.currency,
      reference: row.reference,
      created_at: new Date(row.created_at).toISOString(),
    }))
  }

  /** Sets the buyer's billing mode in a currency (its balance stays); the operator's alone. */
  async setBilling(
    principal: Principal,
    buyer: Buyer,
    billing: BillingInput,
    trx: TransactionClientContract
  ) {
    if (!principal.isOperator) {
      throw ApiProblem.forbidden(
        'operator_only',
        "A buyer's billing mode and credit limit are the operator's to set.",
        { field: 'billing' }
      )
    }
    if (billing.mode === 'prepaid' && billing.credit_limit_cents) {
      throw ApiProblem.unprocessable([
        {
          field: 'billing.credit_limit_cents',
          code: 'prepaid_without_credit',
          message: 'A prepaid buyer has no credit limit: set mode "credit" to give one.',
        },
      ])
    }
    const limit = billing.mode === 'credit' ? (billing.credit_limit_cents ?? 0) : 0
    await trx.rawQuery(
      `INSERT INTO public.buyer_funds (buyer_id, currency, mode, credit_limit_cents, updated_at)
       VALUES (?, ?, ?, ?, now())
       ON CONFLICT (buyer_id, currency) DO UPDATE
         SET mode = EXCLUDED.mode, credit_limit_cents = EXCLUDED.credit_limit_cents,
             alerted_percent = NULL, updated_at = now()`,
      [buyer.id, billing.currency, billing.mode, limit]
    )
    await this.accessLog.record(
      principal.actor,
      'buyer.billing_set',
      { type: 'buyer', id: buyer.id, buyerId: buyer.id },
      {
        details: { mode: billing.mode, currency: billing.currency, credit_limit_cents: limit },
        trx,
      }
    )
  }

  /** Money the buyer paid in: its balance rises at once; one reference books once. */
  async topUp(principal: Principal, buyer: Buyer, input: TopUpInput) {
    return transaction(async (trx) => {
      const accounts: FundsRow[] = await trx
        .from('buyer_funds')
        .where('buyer_id', buyer.id)
        .forUpdate()
      const account = input.currency
        ? accounts.find((row) => row.currency === input.currency)
        : accounts.length === 1
          ? accounts[0]
          : undefined
      if (!account) {
        throw ApiProblem.unprocessable([
          accounts.length === 0
            ? {
                field: 'amount_cents',
                code: 'no_billing',
                message:
                  'This buyer has no billing mode: set one first (PATCH /v1/buyers/{id} with billing).',
              }
            : {
                field: 'currency',
                code: 'currency_mismatch',
                message: `This buyer keeps funds in ${accounts.map((row) => row.currency).join(', ')}: top up in one of them.`,
              },
        ])
      }
      const booked = await trx.rawQuery(
        `INSERT INTO public.buyer_top_ups
           (id, buyer_id, currency, amount_cents, reference, recorded_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, now()) ON CONFLICT (buyer_id, reference) DO NOTHING
         RETURNING id, created_at`,
        [uuidv7(), buyer.id, account.currency, input.amount_cents, input.reference, principal.actor]
      )
      if (booked.rows.length === 0) {
        throw ApiProblem.conflict(
          'top_up_recorded',
          `A top-up with reference "${input.reference}" is booked for this buyer already.`,
          { field: 'reference' }
        )
      }
      const updated = await trx.rawQuery(
        `UPDATE public.buyer_funds SET balance_cents = balance_cents + ?, alerted_percent = NULL,
                funded_cents = balance_cents + ? - reserved_cents, updated_at = now()
          WHERE buyer_id = ? AND currency = ? RETURNING *`,
        [input.amount_cents, input.amount_cents, buyer.id, account.currency]
      )
      const [row] = updated.rows
      await this.accessLog.record(
        principal.actor,
        'buyer.topped_up',
        { type: 'buyer', id: buyer.id, buyerId: buyer.id },
        {
          details: { amount_cents: input.amount_cents, currency: account.currency },
          trx,
        }
      )
      return {
        id: booked.rows[0].id as string,
        buyer_id: buyer.id,
        amount_cents: input.amount_cents,
        currency: account.currency,
        reference: input.reference,
        created_at: new Date(booked.rows[0].created_at).toISOString(),
        funds: fundsView(row),
      }
    })
  }
}
