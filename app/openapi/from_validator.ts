import { isDeepStrictEqual } from 'node:util'
import { pagination } from '#validators/helpers'
import type { Body, Docs, FieldDocs, Schema } from './helpers.js'

export type { Docs, FieldDocs } from './helpers.js'

/**
 * Request bodies and query parameters come from the VineJS validators'
 * JSON Schema (`toJSONSchema()`): what a validator accepts is what the
 * document says, with no second copy to drift. This file adds only words and
 * examples, by property path, and turns the shapes the validators name
 * (`documentedAs`) into components.
 */
type JsonSchemaSource = { toJSONSchema(): object }

const ANNOTATIONS = ['description', 'examples', 'default', 'writeOnly', 'title']
const MARK = 'x-component'
type Mark = { name: string; schema: Schema }

/** The JSON Schema of a validator (or of one of its schemas), with its docs merged in. */
export function schemaOf(source: JsonSchemaSource, docs: Docs = {}): Schema {
  const schema = normalise(structuredClone(source.toJSONSchema()) as Schema)
  for (const [path, fieldDocs] of Object.entries(docs)) describe(at(schema, path), fieldDocs, path)
  return schema
}

type BodyOptions = Omit<Body, 'schema'> & {
  /** Makes the body a component of this name (other schemas may `$ref` it). */
  name?: string
  docs?: Docs
}

/** A request body from its validator: `body: fromValidator(createBuyerValidator, { example })`. */
export function fromValidator(validator: JsonSchemaSource, options: BodyOptions = {}): Body {
  const { name, docs, ...body } = options
  const schema = schemaOf(validator, docs)
  return { ...body, schema: name ? { [MARK]: { name, schema } satisfies Mark } : schema }
}

/** Query fields every list shares, each a parameter component (components.ts). */
const SHARED_PARAMETERS: Record<string, { component: string; source: JsonSchemaSource }> = {
  limit: { component: 'Limit', source: pagination.limit },
  cursor: { component: 'Cursor', source: pagination.cursor },
}

/**
 * A list's or a read's query parameters from its validator: one per field,
 * shared ones (`limit`, `cursor`) last as references. A field's description
 * goes on the parameter, its other docs on the schema.
 */
export function queryParameters(validator: JsonSchemaSource, docs: Docs = {}) {
  const query = schemaOf(validator)
  const required = new Set((query.required as string[] | undefined) ?? [])
  const own: Schema[] = []
  const shared: Schema[] = []
  for (const [name, schema] of Object.entries(query.properties as Record<string, Schema>)) {
    const common = SHARED_PARAMETERS[name]
    if (common && isDeepStrictEqual(schemaOf(common.source), schema)) {
      shared.push({ $ref: `#/components/parameters/${common.component}` })
      continue
    }
    const { description, ...schemaDocs } = toObject(docs[name] ?? {})
    if (docs[name] !== undefined) describe(schema, schemaDocs, name)
    own.push({
      name,
      in: 'query',
      ...(required.has(name) ? { required: true } : {}),
      ...(description ? { description } : {}),
      schema,
    })
  }
  const unknown = Object.keys(docs).filter((name) => !(name in (query.properties as object)))
  if (unknown.length)
    throw new Error(`OpenAPI docs for unknown query fields: ${unknown.join(', ')}`)
  return [...own, ...shared]
}

const toObject = (docs: FieldDocs) => (typeof docs === 'string' ? { description: docs } : docs)

function describe(node: Schema, docs: FieldDocs, path: string) {
  const { checkedByService, ...annotations } = toObject(docs)
  for (const key of Object.keys(annotations)) {
    if (!ANNOTATIONS.includes(key))
      throw new Error(`OpenAPI docs of "${path}": ${key} is no annotation`)
  }
  for (const key of Object.keys(checkedByService ?? {})) {
    if (key in node)
      throw new Error(`OpenAPI docs of "${path}": the validator already states ${key}`)
  }
  Object.assign(node, annotations, checkedByService)
}

/** The node at a property path; a named shape is described where it is named, not at each use. */
function at(schema: Schema, path: string): Schema {
  let node = schema
  for (const key of path ? path.split('.') : []) {
    if (node[MARK] && node !== schema) {
      throw new Error(
        `OpenAPI docs of "${path}": describe ${(node[MARK] as Mark).name} in its shape docs`
      )
    }
    node = child(node, key.replace(/\[\]$/, ''), path)
    if (key.endsWith('[]')) node = node.items as Schema
  }
  return node
}

function child(node: Schema, key: string, path: string): Schema {
  const properties = node.properties as Record<string, Schema> | undefined
  if (properties?.[key]) return properties[key]
  if (node.items) return child(node.items as Schema, key, path)
  const members = (node.oneOf ?? node.anyOf) as Schema[] | undefined
  const value = members?.find((member) => member.type !== 'null')
  if (members?.length === 2 && value) return child(value, key, path)
  throw new Error(`OpenAPI docs for "${path}": the validator has no such field`)
}

/** The JSON Schema type every value of an enum shares, if one does. */
function enumType(values: unknown[]) {
  const types = new Set(values.map((value) => typeof value))
  const [type] = types
  return types.size === 1 && ['string', 'boolean', 'number'].includes(type) ? type : undefined
}

/**
 * VineJS's output in the document's idiom: no empty `required`, an enum with
 * its type, and null beside a value as `type: [..., "null"]` (or `oneOf` for
 * a named shape), as the response schemas write it.
 */
function normalise(node: Schema): Schema {
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue
    if (Array.isArray(value))
      node[key] = value.map((item) => (isSchema(item) ? normalise(item) : item))
    else if (isSchema(value))
      node[key] = key === 'properties' ? mapValues(value, normalise) : normalise(value)
  }
  if (Array.isArray(node.required) && node.required.length === 0) delete node.required
  if (Array.isArray(node.enum) && node.type === undefined) {
    const type = enumType(node.enum)
    if (type) node.type = type
  }
  const members = node.anyOf as Schema[] | undefined
  if (members?.length === 2 && members[1].type === 'null' && Object.keys(node).length === 1) {
    const [value] = members
    if (value[MARK]) return { oneOf: members }
    if (typeof value.type === 'string' && Array.isArray(value.enum)) {
      return { ...value, type: [value.type, 'null'], enum: [...value.enum, null] }
    }
  }
  return node
}

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const mapValues = (record: Schema, map: (value: Schema) => Schema) =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value as Schema)]))

/**
 * Replaces every named shape in the document's paths with a `$ref` to its
 * component, made from the shape and the docs given for it. A field that
 * narrows the shape keeps what it adds beside the `$ref`. Two validators
 * naming different shapes alike is a mistake and fails loudly.
 */
export function hoistShapes(tree: object, shapeDocs: Record<string, Docs>) {
  const components: Record<string, Schema> = {}
  const shapes = new Map<string, Schema>()

  function visit(node: unknown): unknown {
    if (Array.isArray(node)) return node.map(visit)
    if (!isSchema(node)) return node
    const mark = node[MARK] as Mark | undefined
    const rest = mapValues(
      Object.fromEntries(Object.entries(node).filter(([key]) => key !== MARK)),
      visit as (value: Schema) => Schema
    )
    if (!mark) return rest
    const shape = visit(mark.schema) as Schema
    const known = shapes.get(mark.name)
    if (known && !isDeepStrictEqual(known, shape)) {
      throw new Error(`Two validators name different shapes "${mark.name}"`)
    }
    if (!known) {
      shapes.set(mark.name, shape)
      const component = structuredClone(shape)
      for (const [path, docs] of Object.entries(shapeDocs[mark.name] ?? {})) {
        describe(at(component, path), docs, `${mark.name}: ${path}`)
      }
      components[mark.name] = component
    }
    return reference(mark.name, shape, rest)
  }

  const hoisted = visit(tree)
  const undescribed = Object.keys(shapeDocs).filter((name) => !shapes.has(name))
  if (undescribed.length) {
    throw new Error(`OpenAPI shape docs for shapes no validator names: ${undescribed.join(', ')}`)
  }
  return { tree: hoisted, components }
}

/** `$ref` to a shape, with whatever the use adds to it: null, a narrower bound, its own words. */
function reference(name: string, shape: Schema, use: Schema): Schema {
  const ref = { $ref: `#/components/schemas/${name}` }
  const allowsNull =
    Array.isArray(use.type) && !Array.isArray(shape.type) && use.type.includes('null')
  if (allowsNull) use.type = shape.type
  const constraints: Schema = {}
  const annotations: Schema = {}
  for (const [key, value] of Object.entries(use)) {
    if (isDeepStrictEqual(shape[key], value)) continue
    ;(ANNOTATIONS.includes(key) ? annotations : constraints)[key] = value
  }
  const value = { ...ref, ...constraints }
  return allowsNull
    ? { oneOf: [value, { type: 'null' }], ...annotations }
    : { ...value, ...annotations }
}
