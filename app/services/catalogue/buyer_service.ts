import { inject } from '@adonisjs/core'
import Buyer from '#models/buyer'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import BuyerFundsService, { type BillingInput } from '#services/money/buyer_funds_service'
import { transaction } from '#services/sql/transaction'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'

export type CreateBuyerInput = { name: string; contact_email: string; return_window_hours?: number }
export type UpdateBuyerInput = {
  name?: string
  contact_email?: string
  status?: Buyer['status']
  return_window_hours?: number
  duplicate_window_days?: number | null
  billing?: BillingInput
}

@inject()
export default class BuyerService {
  constructor(
    protected accessLog: AccessLogService,
    protected funds: BuyerFundsService
  ) {}

  async create(principal: Principal, input: CreateBuyerInput) {
    return transaction(async (trx) => {
      const buyer = await Buyer.create(
        {
          name: input.name,
          contactEmail: input.contact_email,
          status: 'active',
          returnWindowHours: input.return_window_hours ?? 168,
        },
        { client: trx }
      )
      await this.accessLog.record(
        principal.actor,
        'buyer.created',
        { type: 'buyer', id: buyer.id, buyerId: buyer.id },
        { trx }
      )
      return buyer
    })
  }

  /**
   * The operator sees every buyer, a buyer only itself (the policy still
   * refuses it: the catalogue is the operator's), anyone else none.
   */
  visibleTo(principal: Principal) {
    const query = Buyer.query()
    if (!principal.isOperator) {
      query.where(
        'id',
        (principal.kind === 'buyer' && principal.buyerId) || '00000000-0000-0000-0000-000000000000'
      )
    }
    return query
  }

  list(principal: Principal, page: PageRequest) {
    return paginate(this.visibleTo(principal), page)
  }

  async findVisible(principal: Principal, id: string) {
    const buyer = await this.visibleTo(principal).where('id', id).first()
    if (!buyer) throw ApiProblem.notFound('buyer')
    return buyer
  }

  /**
   * Pausing a buyer takes it out of routing at once: the rule book reads
   * only active buyers' rules, and this save moves its version. The e-mail
   * address is personal data: the access log names the fields, not it.
   */
  async update(principal: Principal, buyer: Buyer, input: UpdateBuyerInput) {
    const fields = Object.keys(input).filter(
      (field) => input[field as keyof UpdateBuyerInput] !== undefined
    )
    if (fields.length === 0) return buyer
    await transaction(async (trx) => {
      buyer.useTransaction(trx)
      buyer.merge({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.contact_email !== undefined ? { contactEmail: input.contact_email } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.return_window_hours !== undefined
          ? { returnWindowHours: input.return_window_hours }
          : {}),
        ...(input.duplicate_window_days !== undefined
          ? { duplicateWindowDays: input.duplicate_window_days }
          : {}),
      })
      if (input.billing) await this.funds.setBilling(principal, buyer, input.billing, trx)
      await buyer.save()
      await this.accessLog.record(
        principal.actor,
        'buyer.updated',
        { type: 'buyer', id: buyer.id, buyerId: buyer.id },
        { details: { fields, ...(input.status ? { status: input.status } : {}) }, trx }
      )
    })
    return buyer
  }
}
