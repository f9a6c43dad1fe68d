import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import ApiKey from '#models/api_key'
import OauthClient from '#models/oauth_client'
import Publisher from '#models/publisher'
import User from '#models/user'
import type Principal from '#auth/principal'
import type { Environment } from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import { deliveryMethodEnabled } from '#services/intake/delivery_methods'
import {
  DEFAULT_PAGE_SIZE,
  type Page,
  type PageRequest,
  decodeCursor,
  encodeCursor,
} from '#services/sql/cursor_pagination'
import UploadService, { type UploadView } from '#services/uploads/upload_service'
import type { UploadRow, UploadStatus } from '#services/uploads/upload_types'

export const UPLOAD_STATUSES = [
  'validating',
  'validated',
  'accepting',
  'accepted',
] as const satisfies readonly UploadStatus[]

export type UploadListFilters = PageRequest & {
  status?: UploadStatus
  /** The operator narrows the list to one publisher; anyone else lists only its own anyway. */
  publisher_id?: string
}

/** Whether a publisher's people may upload now, and into which environment. */
export type UploadOpening =
  { open: true; environment: Environment } | { open: false; reason: 'not_enabled' | 'paused' }

/**
 * Lists of uploads, newest first (GET /v1/uploads and the portals' pages),
 * and what a person in a portal needs around them. A publisher's uploads
 * live in its own schema; the operator's list reads every publisher's
 * schema in one statement, each part already ordered and cut to the page.
 * Uploads belong to an environment, as keys do: the caller's.
 */
@inject()
export default class UploadListing {
  constructor(protected uploads: UploadService) {}

  async list(principal: Principal, filters: UploadListFilters): Promise<Page<UploadView>> {
    const publishers = await this.reachable(principal, filters.publisher_id)
    if (publishers.length === 0) return { data: [], nextCursor: null }
    const limit = filters.limit ?? DEFAULT_PAGE_SIZE
    const after = filters.cursor === undefined ? null : decodeCursor(filters.cursor)
    // One set of bindings for every schema's part: the statement grows with the publishers, not its parameters.
    const parts = publishers.map(
      (publisher) =>
        `(SELECT u.* FROM "${publisher.schemaName}".uploads u, params p
           WHERE u.environment = p.environment
             AND (p.status IS NULL OR u.status = p.status)
             AND (p.after IS NULL OR u.id < p.after)
           ORDER BY u.id DESC LIMIT ${limit + 1})`
    )
    const result = await db.rawQuery(
      `WITH params AS (SELECT ?::text AS environment, ?::text AS status, ?::uuid AS after)
       SELECT * FROM (${parts.join(' UNION ALL ')}) page ORDER BY id DESC LIMIT ${limit + 1}`,
      [principal.environment, filters.status ?? null, after]
    )
    const rows = result.rows as UploadRow[]
    const byId = new Map(publishers.map((publisher) => [publisher.id, publisher]))
    const data = await Promise.all(
      rows
        .slice(0, limit)
        .map((row) => this.uploads.view(row, byId.get(row.publisher_id) as Publisher))
    )
    return {
      data,
      nextCursor: rows.length > limit ? encodeCursor(data[data.length - 1].id) : null,
    }
  }

  /** The publishers whose uploads the caller reaches: its own, or (the operator) every one or the one named. */
  private async reachable(principal: Principal, publisherId?: string) {
    if (principal.kind === 'publisher') {
      if (publisherId && publisherId !== principal.publisherId) return []
      return Publisher.query().where('id', principal.publisherId ?? '')
    }
    if (!principal.isOperator) return []
    const query = Publisher.query().orderBy('id')
    if (publisherId) query.where('id', publisherId)
    return query
  }

  /**
   * One upload for a person in a portal, who sees its live and its sandbox
   * uploads alike (an upload made before the publisher went live is
   * sandbox): the upload, and the caller in the upload's environment, for
   * what it does next with it (its rows, its report, accepting it).
   */
  async findForPerson(principal: Principal, id: string) {
    try {
      return { upload: await this.uploads.find(principal, id), principal }
    } catch (error) {
      if (!(error instanceof ApiProblem) || error.status !== 404) throw error
      const sandbox = principal.in(principal.environment === 'live' ? 'sandbox' : 'live')
      return { upload: await this.uploads.find(sandbox, id), principal: sandbox }
    }
  }

  /**
   * Whether a publisher takes uploads from its people now, and as which
   * leads: live once the operator set it live, sandbox until then (checked
   * like live ones, never sold), none while it is paused or has not chosen
   * uploads as a way to deliver.
   */
  openingFor(publisher: Publisher): UploadOpening {
    if (!deliveryMethodEnabled(publisher, 'upload')) return { open: false, reason: 'not_enabled' }
    if (publisher.status === 'paused') return { open: false, reason: 'paused' }
    return { open: true, environment: publisher.status === 'live' ? 'live' : 'sandbox' }
  }

  /**
   * Who uploaded, in words the reader may see: a portal user by e-mail (the
   * operator sees every one; a publisher its own people), a key or an OAuth
   * client by its name; anyone else by what it is ("the operator").
   */
  async uploaderNames(principal: Principal, actors: string[]): Promise<Record<string, string>> {
    const parsed = [...new Set(actors)].map((actor) => {
      const [type, id = ''] = actor.split(':')
      return { actor, type, id: /^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : null }
    })
    const ids = (...types: string[]) =>
      parsed.filter((item) => item.id && types.includes(item.type)).map((item) => item.id!)
    const [users, keys, clients] = await Promise.all([
      ids('publisher', 'operator').length
        ? User.query()
            .select('id', 'email', 'publisherId')
            .whereIn('id', ids('publisher', 'operator'))
        : [],
      ids('api_key').length
        ? ApiKey.query().select('id', 'name', 'publisherId').whereIn('id', ids('api_key'))
        : [],
      ids('oauth_client').length
        ? OauthClient.query().select('id', 'name', 'publisherId').whereIn('id', ids('oauth_client'))
        : [],
    ])
    const sees = (owner: string | null) => principal.isOperator || owner === principal.publisherId
    const known = new Map<string, string>()
    for (const user of users) if (sees(user.publisherId)) known.set(user.id, user.email)
    for (const key of keys) if (sees(key.publisherId)) known.set(key.id, `API key "${key.name}"`)
    for (const client of clients) {
      if (sees(client.publisherId)) known.set(client.id, `OAuth client "${client.name}"`)
    }
    const GENERIC: Record<string, string> = {
      operator: 'The operator',
      publisher: 'A colleague',
      api_key: 'An API key',
      oauth_client: 'An OAuth client',
    }
    return Object.fromEntries(
      parsed.map((item) => [
        item.actor,
        (item.id && known.get(item.id)) ?? GENERIC[item.type] ?? item.type,
      ])
    )
  }
}
