import { BaseTransformer } from '@adonisjs/core/transformers'
import type Destination from '#models/destination'
import { SECRET_FIELD } from '#services/selling/http_destination'
import { isoTime } from '#services/sql/timestamps'

/**
 * A destination as the API answers it: its settings, never its secrets. An http destination's
 * auth says which secret it holds (`password_set`, `token_set`...) so a form can say "unchanged".
 */
export default class DestinationTransformer extends BaseTransformer<Destination> {
  toObject() {
    const destination = this.resource
    const config = destination.config ?? {}
    const http = config.http
    const auth = http?.auth
    const secretField =
      auth && auth.type !== 'none' ? SECRET_FIELD[auth.type as keyof typeof SECRET_FIELD] : null
    return {
      id: destination.id,
      buyer_id: destination.buyerId,
      name: destination.name,
      kind: destination.kind,
      status: destination.status,
      http: http
        ? {
            ...http,
            ...(auth
              ? { auth: { ...auth, ...(secretField ? { [`${secretField}_set`]: true } : {}) } }
              : {}),
          }
        : null,
      email: config.email ?? null,
      crm: config.crm ?? null,
      created_at: isoTime(destination.createdAt),
      updated_at: isoTime(destination.updatedAt),
    }
  }
}
