/**
 * Reading the OpenAPI document for the reference page: resolving `$ref`s,
 * flattening schemas into field rows, and building example requests.
 */
export type Json = Record<string, any>

export type FieldRow = {
  name: string
  type: string
  required: boolean
  description: string
  constraints: string[]
}

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

export function resolve(document: Json, value: Json | undefined): Json {
  if (!value?.$ref || typeof value.$ref !== 'string') return value ?? {}
  const target = value.$ref
    .slice(2)
    .split('/')
    .reduce(
      (node: any, segment: string) => node?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
      document
    )
  return target ?? {}
}

export function refName(value: Json | undefined) {
  return typeof value?.$ref === 'string' ? value.$ref.split('/').at(-1) : undefined
}

/**
 * One schema with its references, `allOf` parts and sibling keywords folded
 * together, so its properties and required fields can be read in one place.
 */
export function flatten(document: Json, schema: Json | undefined, depth = 0): Json {
  if (!schema || depth > 8) return {}
  let merged: Json = {}
  if (schema.$ref) merged = flatten(document, resolve(document, schema), depth + 1)
  for (const part of schema.allOf ?? [])
    merged = mergeSchemas(merged, flatten(document, part, depth + 1))
  const own = Object.fromEntries(
    Object.entries(schema).filter(([key]) => key !== '$ref' && key !== 'allOf')
  )
  return mergeSchemas(merged, own)
}

function mergeSchemas(base: Json, extra: Json): Json {
  return {
    ...base,
    ...extra,
    properties: { ...(base.properties ?? {}), ...(extra.properties ?? {}) },
    required: [...new Set([...(base.required ?? []), ...(extra.required ?? [])])],
  }
}

/** `null` alternatives are shown as "or null", not as a separate branch. */
function alternatives(schema: Json) {
  return (schema.oneOf ?? schema.anyOf ?? []).filter((option: Json) => option.type !== 'null')
}

function allowsNull(schema: Json) {
  const options: Json[] = schema.oneOf ?? schema.anyOf ?? []
  return (
    options.some((option) => option.type === 'null') ||
    (Array.isArray(schema.type) && schema.type.includes('null'))
  )
}

export function typeLabel(document: Json, schema: Json | undefined, depth = 0): string {
  if (!schema || depth > 4) return 'any'
  const name = refName(schema)
  const flat = flatten(document, schema)
  let label: string
  if (flat.const !== undefined) label = JSON.stringify(flat.const)
  else if (alternatives(flat).length && !flat.type)
    label = alternatives(flat)
      .map((option: Json) => typeLabel(document, option, depth + 1))
      .join(' | ')
  else if (flat.type === 'array' || (Array.isArray(flat.type) && flat.type.includes('array')))
    label = `array of ${typeLabel(document, flat.items, depth + 1)}`
  else if (Array.isArray(flat.type))
    label = flat.type.filter((type: string) => type !== 'null').join(' | ')
  else
    label = flat.type ?? (flat.properties && Object.keys(flat.properties).length ? 'object' : 'any')
  if (flat.format && typeof flat.type === 'string') label += ` (${flat.format})`
  if (name && !['array', 'object'].includes(flat.type) && !label.includes(name))
    label = `${label} · ${name}`
  else if (name && flat.type === 'object') label = name
  return allowsNull(flat) ? `${label} or null` : label
}

export function constraintsOf(document: Json, schema: Json): string[] {
  const flat = flatten(document, schema)
  const notes: string[] = []
  const options = alternatives(flat)
  const enumValues =
    flat.enum ?? (options.length === 1 ? flatten(document, options[0]).enum : undefined)
  const quoted = (values: unknown[]) =>
    values
      .filter((value) => value !== null)
      .map((value) => JSON.stringify(value))
      .join(', ')
  if (enumValues) notes.push(`one of ${quoted(enumValues)}`)
  const itemValues = flat.items ? flatten(document, flat.items).enum : undefined
  if (itemValues) notes.push(`each one of ${quoted(itemValues)}`)
  if (flat.minLength !== undefined || flat.maxLength !== undefined)
    notes.push(`${flat.minLength ?? 0}–${flat.maxLength ?? '∞'} characters`)
  if (flat.minimum !== undefined || flat.maximum !== undefined)
    notes.push(`${flat.minimum ?? '−∞'} to ${flat.maximum ?? '∞'}`)
  if (flat.minItems !== undefined || flat.maxItems !== undefined)
    notes.push(`${flat.minItems ?? 0}–${flat.maxItems ?? '∞'} items`)
  if (flat.uniqueItems) notes.push('no duplicates')
  if (flat.pattern) notes.push(`matches ${flat.pattern}`)
  if (flat.default !== undefined) notes.push(`default ${JSON.stringify(flat.default)}`)
  if (flat.examples?.length) notes.push(`e.g. ${JSON.stringify(flat.examples[0])}`)
  return notes
}

function descriptionOf(document: Json, schema: Json) {
  return schema.description ?? flatten(document, schema).description ?? ''
}

function objectSchema(document: Json, schema: Json | undefined): Json | undefined {
  const flat = flatten(document, schema)
  if (flat.properties && Object.keys(flat.properties).length) return flat
  if (flat.type === 'array' || (Array.isArray(flat.type) && flat.type.includes('array')))
    return undefined
  const options = alternatives(flat)
  return options.length === 1 ? objectSchema(document, options[0]) : undefined
}

/** The fields of an object schema as rows; nested objects and lists of objects follow as `parent.child` and `list[].child`. */
export function fieldRows(
  document: Json,
  schema: Json | undefined,
  prefix = '',
  depth = 0
): FieldRow[] {
  const flat = objectSchema(document, schema)
  if (!flat || depth > 4) return []
  const required = new Set<string>(flat.required ?? [])
  return Object.entries(flat.properties as Record<string, Json>).flatMap(([key, property]) => {
    const name = `${prefix}${key}`
    const row: FieldRow = {
      name,
      type: typeLabel(document, property),
      required: required.has(key),
      description: descriptionOf(document, property),
      constraints: constraintsOf(document, property),
    }
    const items = flatten(document, property).items
    const nested = items
      ? fieldRows(document, items, `${name}[].`, depth + 1)
      : fieldRows(document, property, `${name}.`, depth + 1)
    return [row, ...nested]
  })
}

/** An example value for a schema: its example, else one built from its fields. */
export function exampleOf(document: Json, schema: Json | undefined, depth = 0): unknown {
  const flat = flatten(document, schema)
  if (depth > 5) return undefined
  if (flat.examples?.length) return flat.examples[0]
  if (flat.const !== undefined) return flat.const
  if (flat.enum?.length) return flat.enum[0]
  if (flat.default !== undefined) return flat.default
  const options = alternatives(flat)
  if (options.length && !flat.type) return exampleOf(document, options[0], depth + 1)
  const type = Array.isArray(flat.type)
    ? flat.type.find((item: string) => item !== 'null')
    : flat.type
  if (type === 'array') return [exampleOf(document, flat.items, depth + 1)]
  if (type === 'object' || flat.properties) {
    const required = new Set(flat.required ?? [])
    return Object.fromEntries(
      Object.entries((flat.properties ?? {}) as Record<string, Json>)
        .filter(([key]) => required.has(key))
        .map(([key, property]) => [key, exampleOf(document, property, depth + 1)])
    )
  }
  if (type === 'integer' || type === 'number') return flat.minimum ?? 1
  if (type === 'boolean') return true
  if (flat.format === 'uuid') return '0194f3c2-7b1e-7cc0-9a51-3d2f4e5a6b7c'
  if (flat.format === 'date-time') return '2025-01-31T09:30:00Z'
  return 'string'
}

export type OperationView = {
  method: string
  path: string
  operation: Json
  pathParameters: Json[]
}

/** Operations grouped by their tag, in the document's tag order. */
export function operationsByTag(document: Json) {
  const groups = new Map<string, OperationView[]>(
    (document.tags ?? []).map((tag: Json) => [tag.name, []])
  )
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const operation = item[method]
      if (!operation) continue
      const tag = operation.tags?.[0] ?? 'Other'
      if (!groups.has(tag)) groups.set(tag, [])
      groups.get(tag)!.push({ method, path, operation, pathParameters: item.parameters ?? [] })
    }
  }
  return groups
}

function shellQuote(text: string) {
  return `'${text.replaceAll("'", "'\\''")}'`
}

/** A curl command for the operation, with its example body and required parameters. */
export function curlFor(document: Json, view: OperationView, baseUrl: string) {
  const parameters = [...view.pathParameters, ...(view.operation.parameters ?? [])].map(
    (parameter) => resolve(document, parameter)
  )
  let path = view.path
  for (const parameter of parameters.filter((item) => item.in === 'path')) {
    path = path.replace(`{${parameter.name}}`, String(exampleOf(document, parameter.schema)))
  }
  const query = parameters
    .filter((item) => item.in === 'query' && item.required)
    .map((item) => `${item.name}=${encodeURIComponent(String(exampleOf(document, item.schema)))}`)
  const url = `${baseUrl}${path}${query.length ? `?${query.join('&')}` : ''}`

  const lines = [`curl -X ${view.method.toUpperCase()} ${shellQuote(url)}`]
  const security: Json[] = view.operation.security ?? []
  if (security.some((item) => 'clientBasic' in item)) lines.push('  -u "$CLIENT_ID:$CLIENT_SECRET"')
  else if (security.length) lines.push('  -H "Authorization: Bearer $LEADGATE_KEY"')
  for (const header of parameters.filter((item) => item.in === 'header')) {
    // A fresh key per run; a constant one would replay the first answer.
    lines.push(
      header.name === 'Idempotency-Key'
        ? '  -H "Idempotency-Key: $(uuidgen)"'
        : `  -H ${shellQuote(`${header.name}: ${exampleOf(document, header.schema)}`)}`
    )
  }
  const content: Json = view.operation.requestBody?.content ?? {}
  const [mediaType] = Object.keys(content)
  if (mediaType) {
    const media = content[mediaType]
    const example = media.example ?? exampleOf(document, media.schema)
    if (mediaType === 'application/x-www-form-urlencoded') {
      for (const [key, value] of Object.entries(example as Json))
        lines.push(`  --data-urlencode ${shellQuote(`${key}=${value}`)}`)
    } else {
      lines.push(
        `  -H 'Content-Type: ${mediaType}'`,
        `  -d ${shellQuote(JSON.stringify(example, null, 2))}`
      )
    }
  }
  return lines.join(' \\\n')
}
