import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import { documentedAs, pagination, slug, strictObject, uuid } from '#validators/helpers'
import { OUTCOMES } from '#services/uploads/upload_types'
import { UPLOAD_STATUSES } from '#services/uploads/upload_listing'

/** The file part: read as it streams in (UploadReader), never by a validator. */
const streamedFile = vine.createRule(() => {}, {
  name: 'streamedFile',
  toJSONSchema: (schema) => {
    delete schema.anyOf
    Object.assign(schema, { type: 'string', contentMediaType: 'application/octet-stream' })
  },
})

/**
 * `mapping` arrives as a multipart field: JSON text of `{ "<column>": "<lead field>" | null }`.
 * Whether its columns and fields fit the file is decided once the file is read.
 */
const mappingJson = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (typeof value !== 'string') return
  let parsed: unknown
  try {
    parsed = JSON.parse(value)
  } catch {
    return field.report('The mapping must be a JSON object.', 'mapping_json', field)
  }
  const entries =
    parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed) : null
  if (!entries) return field.report('The mapping must be a JSON object.', 'mapping_json', field)
  if (entries.length > 200) {
    return field.report('A mapping names at most 200 columns.', 'mapping_size', field)
  }
  for (const [column, target] of entries) {
    if (column.length > 200 || (target !== null && typeof target !== 'string')) {
      return field.report(
        'Each entry maps a column name to a lead field (a string such as "contact.email") or to null.',
        'mapping_entry',
        field
      )
    }
  }
})

/** The fields beside the file (read after the body has arrived); an unknown one is refused. */
export const uploadFieldsValidator = vine.create(
  strictObject({
    // The file part itself was read as it streamed in (UploadReader); here it is only a known name.
    file: vine.any().use(streamedFile()).optional(),
    publisher: slug().optional(),
    mapping: vine
      .string()
      .maxLength(20_000)
      .use(mappingJson())
      .transform((text) => JSON.parse(text) as Record<string, string | null>)
      .optional(),
  })
)

/** `GET /v1/uploads`'s query (and the portals' lists'): a status, the operator's publisher, a page. */
export const listUploadsValidator = vine.create({
  status: vine.enum(UPLOAD_STATUSES).use(documentedAs('UploadStatus')).optional(),
  publisher_id: uuid().optional(),
  ...pagination,
})

export const listUploadRowsValidator = vine.create({
  outcome: vine.enum(OUTCOMES).optional(),
  ...pagination,
})

export const acceptUploadValidator = vine.create(
  strictObject({
    include_flagged: vine.boolean({ strict: true }).optional(),
  })
)
