import router from '@adonisjs/core/services/router'
import { type OpenapiDocument, withRouteStatus } from './document.js'

let served: OpenapiDocument | undefined

/**
 * The OpenAPI 3.1 document served at /v1/openapi.json and rendered at /docs,
 * with the operations this server does not route yet marked as planned.
 */
export function openapiDocument() {
  if (served) return served
  const routes = servedOperations()
  const document = withRouteStatus(routes)
  // Before the router commits there are no routes to compare with; do not keep that answer.
  if (routes.size > 0) served = document
  return document
}

/** Every `/v1` route the router serves, as `METHOD /v1/path/{param}`. */
export function servedOperations() {
  const operations = new Set<string>()
  for (const route of Object.values(router.toJSON()).flat()) {
    if (!route.pattern.startsWith('/v1/')) continue
    const path = route.pattern.replace(/:([A-Za-z0-9_]+)\??/g, '{$1}')
    for (const method of route.methods) {
      if (method !== 'HEAD') operations.add(`${method} ${path}`)
    }
  }
  return operations
}
