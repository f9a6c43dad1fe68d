import { accessLogs } from './access_logs.js'
import { audit } from './audit.js'
import { catalogue } from './catalogue.js'
import { forms } from './forms.js'
import { money } from './money.js'
import { plugins } from './plugins.js'
import { privacy } from './privacy.js'
import { reports } from './reports.js'
import { selling } from './selling.js'
import { headers, parameters, responses, schemas, securitySchemes, shapes } from './components.js'
import { hoistShapes } from './from_validator.js'
import { keys } from './keys.js'
import { leads } from './leads.js'
import { operation, type Section } from './helpers.js'
import { uploads } from './uploads.js'
import { webhooks } from './webhooks.js'

const meta: Section = {
  tags: [{ name: 'Meta', description: 'About the API itself.' }],
  schemas: {},
  paths: {
    '/v1/openapi.json': {
      get: operation('/v1/openapi.json', {
        id: 'getOpenapiDocument',
        tag: 'Meta',
        summary: 'This document',
        description: 'The OpenAPI 3.1 description of every `/v1` route. No credential needed.',
        scope: 'public',
        success: { status: 200, description: 'The OpenAPI document.', schema: { type: 'object' } },
      }),
    },
  },
}

/** Reading order of the reference: integrators start with keys, then deliver leads. */
const SECTIONS = [
  meta,
  keys,
  leads,
  uploads,
  catalogue,
  selling,
  forms,
  audit,
  accessLogs,
  webhooks,
  money,
  reports,
  plugins,
  privacy,
]

/**
 * Merges the sections; a schema or path defined twice is a mistake (one
 * source of truth), so it fails loudly rather than letting one copy win.
 */
function merge<T>(target: Record<string, T>, source: Record<string, T>, what: string) {
  for (const [name, value] of Object.entries(source)) {
    if (name in target) throw new Error(`OpenAPI ${what} "${name}" is defined twice`)
    target[name] = value
  }
  return target
}

function build() {
  const paths = {}
  const webhookItems = {}
  const sectionSchemas = { ...schemas }
  const shapeDocs = { ...shapes }
  for (const section of SECTIONS) {
    merge(paths, section.paths, 'path')
    merge(sectionSchemas, section.schemas, 'schema')
    merge(webhookItems, section.webhooks ?? {}, 'webhook')
    merge(shapeDocs, section.shapes ?? {}, 'shape')
  }
  // Request bodies carry the validators' named shapes inline until here.
  const hoisted = hoistShapes({ paths, webhookItems }, shapeDocs)
  merge(sectionSchemas, hoisted.components, 'schema')
  const { paths: servedPaths, webhookItems: servedWebhooks } = hoisted.tree as {
    paths: Record<string, unknown>
    webhookItems: Record<string, unknown>
  }

  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Leadgate API',
      version: '1.0.0',
      summary:
        'White-label lead delivery: publishers, quality rules, buyers, routing, signed webhooks and an audit trail.',
      description:
        'Authenticate with `Authorization: Bearer <key>` (or an OAuth client-credentials token). Errors are RFC 9457 ' +
        '`application/problem+json` with a stable `code`. Lists take `limit` and `cursor` and answer `{data, next_cursor}`. ' +
        'Every authenticated answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; a 429 adds `Retry-After`. ' +
        'Operations marked `x-leadgate-status: planned` are specified but not served yet.',
    },
    servers: [{ url: '/', description: 'This Leadgate instance' }],
    security: [{ apiKey: [] }, { oauth2: ['read'] }],
    tags: SECTIONS.flatMap((section) => section.tags),
    paths: servedPaths,
    webhooks: servedWebhooks,
    components: { schemas: sectionSchemas, parameters, headers, responses, securitySchemes },
  }
}

/** Built once: the document only changes with a deploy. */
export const document = build()

export type OpenapiDocument = ReturnType<typeof build>

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const

/**
 * A copy of the document where every operation the server does not serve yet
 * carries `x-leadgate-status: planned`. Derived from the routes, so the mark
 * disappears by itself the day a route lands.
 */
export function withRouteStatus(served: ReadonlySet<string>): OpenapiDocument {
  const copy = structuredClone(document)
  for (const [path, item] of Object.entries(copy.paths as Record<string, Record<string, any>>)) {
    for (const method of METHODS) {
      if (item[method] && !served.has(`${method.toUpperCase()} ${path}`)) {
        item[method]['x-leadgate-status'] = 'planned'
      }
    }
  }
  return copy
}
