import { inject } from '@adonisjs/core'
import vine from '@vinejs/vine'
import type { HttpContext } from '@adonisjs/core/http'
import AccessLogService from '#services/access/access_log_service'
import UserService from '#services/access/user_service'
import AccessLogTransformer from '#transformers/access_log_transformer'
import { listAccessLogsValidator } from '#validators/access_log'

/**
 * Who changed access and configuration, and when: the operator reads every
 * entry, a publisher the entries about itself (the service scopes which).
 * Same validator, policy, service and JSON as GET /v1/access-logs.
 */
@inject()
export default class PortalAccessLogController {
  constructor(
    protected accessLog: AccessLogService,
    protected users: UserService
  ) {}

  async index({ request, inertia, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('AccessLogPolicy').authorize('viewList')
    const filters = await listAccessLogsValidator.validate(request.qs())
    const page = await this.accessLog.list(principal, filters)
    const entries = await serializePage(
      AccessLogTransformer.transform(page.data, principal),
      page.nextCursor
    )

    // A user actor ("publisher:<id>") reads as its e-mail where the reader may see that user.
    const userIds = [
      ...new Set(
        entries.data
          .map(({ actor }) => actor.split(':')[1] ?? '')
          .filter((id) => vine.helpers.isUUID(id))
      ),
    ]
    const known = userIds.length ? await this.users.visibleTo(principal).whereIn('id', userIds) : []
    const actors = Object.fromEntries(known.map((user) => [user.id, user.email]))

    return inertia.render(
      principal.kind === 'publisher' ? 'publisher/access_log' : 'operator/access_log',
      { entries, actors }
    )
  }
}
