import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import AccessLogService from '#services/access/access_log_service'
import { listAccessLogsValidator } from '#validators/access_log'
import AccessLogTransformer from '#transformers/access_log_transformer'

@inject()
export default class AccessLogsController {
  constructor(protected accessLog: AccessLogService) {}

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('AccessLogPolicy').authorize('viewList')
    const filters = await request.validateUsing(listAccessLogsValidator)
    const page = await this.accessLog.list(principal, filters)
    return serializePage(AccessLogTransformer.transform(page.data, principal), page.nextCursor)
  }
}
