import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import AccessLogService from '#services/access/access_log_service'
import { pageToJson } from '#services/sql/cursor_pagination'
import { listAccessLogsValidator } from '#validators/access_log'
import { accessLogEntryToJson } from '#transformers/access_log_transformer'

@inject()
export default class AccessLogsController {
  constructor(protected accessLog: AccessLogService) {}

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('AccessLogPolicy').authorize('viewList')
    const filters = await request.validateUsing(listAccessLogsValidator)
    const page = await this.accessLog.list(principal, filters)
    return pageToJson(page, (entry) => accessLogEntryToJson(entry, principal))
  }
}
