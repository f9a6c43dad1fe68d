import { Ajv2020 } from 'ajv/dist/2020.js'

/** JSON Schema 2020-12 checks over the OpenAPI document's schemas. */

const DOCUMENT_ID = 'urn:leadgate:openapi'

/** The formats the document may use; strict mode refuses any other. */
const FORMATS: Record<string, true | RegExp> = {
  'uuid': /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  'date': /^\d{4}-\d{2}-\d{2}$/,
  'email': /^[^\s@]+@[^\s@]+$/,
  'uri': /^[a-z][a-z0-9+.-]*:\S+$/i,
  'uri-reference': true,
}

export type SchemaCheck = ((data: unknown) => boolean) & { errors?: unknown[] | null }

/** Escapes one JSON Pointer segment (RFC 6901) for use in a URI fragment. */
export function pointerTo(...segments: string[]) {
  return segments
    .map((segment) => `/${encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'))}`)
    .join('')
}

export function schemaChecker(document: object) {
  const ajv = new Ajv2020({
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    allErrors: true,
    formats: FORMATS,
  })
  // Ajv understands OpenAPI 3.0's `nullable`; JSON Schema 2020-12 does not, so refuse it.
  ajv.removeKeyword('nullable')
  // The document's own fields are not schema keywords; strict mode would refuse them at the root.
  ajv.addVocabulary(Object.keys(document))
  ajv.addSchema(document, DOCUMENT_ID)
  return {
    /** Compiles the schema at a JSON pointer of the document; throws on an invalid schema or a dangling $ref. */
    compile(pointer: string): SchemaCheck {
      const check = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`)
      if (!check) throw new Error(`No schema at ${pointer}`)
      return check
    },
    /** Errors of a schema against the JSON Schema 2020-12 meta-schema. */
    metaSchemaErrors(schema: unknown) {
      return ajv.validateSchema(schema as object) ? [] : ajv.errors
    },
  }
}

/** The node a `$ref` points at in the document, or the value itself. */
function resolveRef(document: any, value: any) {
  if (!value?.$ref) return value
  return value.$ref
    .slice(2)
    .split('/')
    .reduce(
      (node: any, segment: string) => node?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
      document
    )
}

/**
 * Checks real answers against the document: the status must be documented
 * for the operation, and the body must match the schema of its media type.
 * Throws with the schema errors and the body when it does not.
 */
export function answerChecker(document: any) {
  const checker = schemaChecker(document)
  return (response: any, method: string, path: string) => {
    const status = String(response.status())
    const where = `${method} ${path} → ${status}`
    const answer = document.paths[path]?.[method.toLowerCase()]?.responses[status]
    if (!answer) throw new Error(`${where}: this status is not documented`)
    const content = resolveRef(document, answer).content
    if (!content) return
    const base = answer.$ref
      ? answer.$ref.slice(2).split('/')
      : ['paths', path, method.toLowerCase(), 'responses', status]
    const media = String(response.header('content-type') ?? '').split(';')[0]
    if (!content[media]) throw new Error(`${where}: media type ${media} not documented`)
    const check = checker.compile(pointerTo(...base, 'content', media, 'schema'))
    if (!check(response.body())) {
      throw new Error(
        `${where}: ${JSON.stringify(check.errors)}\n${JSON.stringify(response.body())}`
      )
    }
  }
}
