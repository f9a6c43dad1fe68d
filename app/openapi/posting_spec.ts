import { document } from './document.js'
import { ref, type Schema } from './helpers.js'
import { codeSchemas } from './posting_spec_codes.js'
import {
  examples,
  leadConstraints,
  type PostingSubject,
  rulesSentences,
} from './posting_spec_rules.js'

export type { PostingSubject } from './posting_spec_rules.js'

/**
 * A publisher's posting spec (GET /v1/publishers/{id}/posting-spec): an OpenAPI 3.1 document of
 * the two requests it sends, `POST /v1/leads` and `POST /v1/pings`, cut from the served document
 * (the same operations, shapes and answers) and narrowed by its quality rules. Built from the
 * rules alone, so the same rules give the same document and its digest says when it changed.
 */
export type PostingSpecVersionView = {
  version: number
  created_at: string
  changes: { kind: string; text: string }[]
}

const SERVED = document as unknown as {
  paths: Record<string, Record<string, any>>
  components: Record<string, Record<string, unknown>>
  tags: { name: string }[]
  servers: unknown[]
  jsonSchemaDialect: string
}
const PATHS = ['/v1/leads', '/v1/pings'] as const
const REF = /^#\/components\/(schemas|parameters|responses|headers)\/(.+)$/

/** Every component the tree refers to, followed through the components themselves. */
function referencedComponents(tree: unknown, own: Record<string, Schema>) {
  const found: Record<string, Record<string, unknown>> = {}
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit)
    if (!node || typeof node !== 'object') return
    const target = typeof (node as Schema).$ref === 'string' && REF.exec((node as any).$ref)
    if (target) {
      const [, kind, name] = target
      found[kind] ??= {}
      if (!(name in found[kind])) {
        const component =
          kind === 'schemas' && own[name] ? own[name] : SERVED.components[kind][name]
        if (component === undefined) throw new Error(`Posting spec: no component ${kind}/${name}`)
        found[kind][name] = component
        visit(component)
      }
    }
    Object.values(node).forEach(visit)
  }
  visit(tree)
  return found
}

function withBody(operation: Record<string, any>, schema: string, example: unknown, note: string) {
  const copy = structuredClone(operation)
  copy.description = `${note} ${copy.description ?? ''}`.trim()
  copy.requestBody = {
    required: true,
    content: { 'application/json': { schema: ref(schema), example } },
  }
  return copy
}

/** The document without its version: what the digest is taken of. */
export function postingSpecBody(subject: PostingSubject & { name: string }) {
  const general = SERVED.paths['/v1/leads'].post.requestBody.content['application/json'].example
  const example = examples(subject, general)
  const sentences = rulesSentences(subject)
  const own: Record<string, Schema> = {
    PublisherLead: {
      description: `A lead of ${subject.name}: the shape every lead has (\`LeadSubmission\`) and what this publisher's quality rules require. A lead that misses a requirement is not refused: it is stored as rejected, answered 422 with its \`reasons\` (\`PostingReason\`).`,
      allOf: [ref('LeadSubmission'), ...leadConstraints(subject)],
      examples: [example.lead],
    },
    PublisherPing: {
      description: `A ping of ${subject.name}: only where the consumer is (postal code, country), provenance and attributes. The lead posted with its \`ping_id\` repeats these fields.`,
      allOf: [
        ref('PingSubmission'),
        { type: 'object', properties: { publisher: { const: subject.slug } } },
      ],
      examples: [example.ping],
    },
    ...codeSchemas(subject),
  }
  const paths = {
    '/v1/leads': {
      post: withBody(
        SERVED.paths['/v1/leads'].post,
        'PublisherLead',
        example.lead,
        'Reasons a lead can get: `PostingReason`; problems: `PostingProblem`.'
      ),
    },
    '/v1/pings': {
      post: withBody(
        SERVED.paths['/v1/pings'].post,
        'PublisherPing',
        example.ping,
        'Problems a ping can get: `PostingProblem`.'
      ),
    },
  } satisfies Record<(typeof PATHS)[number], unknown>
  const components = referencedComponents({ paths, own }, own)
  const tags = new Set(Object.values(paths).flatMap((item) => item.post.tags as string[]))
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: SERVED.jsonSchemaDialect,
    info: {
      'title': `Posting spec: ${subject.name}`,
      'version': '0',
      'summary': `How ${subject.name} (\`${subject.slug}\`) posts leads and pings, and what its quality rules require.`,
      'description': [
        `Leads default to country ${subject.country}. What the quality rules do:`,
        '',
        ...sentences.map((sentence) => `- ${sentence.text}`),
      ].join('\n'),
      'x-leadgate-publisher': subject.slug,
      'x-leadgate-rules': sentences,
    },
    servers: SERVED.servers,
    security: [{ apiKey: [] }],
    tags: SERVED.tags.filter((tag) => tags.has(tag.name)),
    paths,
    components: {
      ...components,
      schemas: { ...own, ...components.schemas },
      securitySchemes: SERVED.components.securitySchemes,
    },
  }
}

export type PostingSpecBody = ReturnType<typeof postingSpecBody>

/** The body with its version: `info.version`, this version's changes and every version before. */
export function withVersion(
  body: PostingSpecBody,
  current: PostingSpecVersionView,
  history: PostingSpecVersionView[]
) {
  return {
    ...body,
    info: {
      ...body.info,
      'version': String(current.version),
      'x-leadgate-changes': current.changes,
      'x-leadgate-versions': history,
    },
  }
}
