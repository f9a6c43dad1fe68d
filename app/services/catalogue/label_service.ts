import { inject } from '@adonisjs/core'
import Label, { type Branding } from '#models/label'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import { type PageRequest, paginate } from '#services/sql/cursor_pagination'
import { transaction } from '#services/sql/transaction'
import { isUniqueViolation } from '#services/sql/unique_violation'

export type CreateLabelInput = { slug: string; name: string; branding?: Branding }

/** Labels are the operator's brands; publishers deliver under one of them. */
@inject()
export default class LabelService {
  constructor(protected accessLog: AccessLogService) {}

  async create(principal: Principal, input: CreateLabelInput) {
    if (await Label.findBy('slug', input.slug)) throw slugTaken(input.slug)
    try {
      return await transaction(async (trx) => {
        const label = await Label.create(
          { slug: input.slug, name: input.name, branding: input.branding ?? {} },
          { client: trx }
        )
        await this.accessLog.record(
          principal.actor,
          'label.created',
          { type: 'label', id: label.id },
          { trx }
        )
        return label
      })
    } catch (error) {
      if (isUniqueViolation(error, 'labels_slug_unique')) throw slugTaken(input.slug)
      throw error
    }
  }

  /** The catalogue is the operator's alone; anyone else sees no label at all. */
  visibleTo(principal: Principal) {
    const query = Label.query()
    if (!principal.isOperator) query.whereRaw('false')
    return query
  }

  list(principal: Principal, page: PageRequest) {
    return paginate(this.visibleTo(principal), page)
  }

  async findVisible(principal: Principal, id: string) {
    const label = await this.visibleTo(principal).where('id', id).first()
    if (!label) throw ApiProblem.notFound('label')
    return label
  }
}

function slugTaken(slug: string) {
  return ApiProblem.conflict('slug_taken', `A label with slug "${slug}" already exists.`)
}
