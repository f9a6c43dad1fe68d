import type Destination from '#models/destination'
import { SECRET_FIELD } from '#services/selling/http_destination'

/**
 * A destination as the API answers it: its settings, never its secrets. An http destination's
 * auth says which secret it holds (`password_set`, `token_set`...) so a form can say "unchanged".
 */
export function destinationToJson(destination: Destination) {
  const config = destination.config ?? {}
  const http = config.http
  const auth = http?.auth
  const secretField = auth && auth.type !== 'none' ? SECRET_FIELD[auth.type as 'basic'] : null
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
    created_at: destination.createdAt.toUTC().toISO(),
    updated_at: destination.updatedAt.toUTC().toISO(),
  }
}
