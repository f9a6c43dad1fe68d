import vine from '@vinejs/vine'
import type { FieldContext } from '@vinejs/vine/types'
import {
  documentedAs,
  flag,
  pagination,
  slug,
  strictObject,
  uuid,
  webUrl,
} from '#validators/helpers'
import {
  ATTRIBUTE_TYPES,
  type FormField,
  RESERVED_FIELD_NAMES,
  isContactField,
} from '#services/forms/form_fields'

/** An origin as browsers send it: scheme, host and port, no path (`https://site.example`). */
const originRule = vine.createRule(
  (value: unknown, _: undefined, field: FieldContext) => {
    if (typeof value !== 'string') return
    let origin: string | null = null
    try {
      const url = new URL(value)
      if (['http:', 'https:'].includes(url.protocol)) origin = url.origin
    } catch {}
    if (origin === null || origin !== value.replace(/\/$/, '')) {
      field.report(
        'Each entry is an origin: scheme, host and port only, e.g. https://site.example.',
        'origin',
        field
      )
    }
  },
  { toJSONSchema: (schema) => void (schema.format = 'uri') }
)

/** One lead field per form field, contact fields typed by the form, select choices given. */
const fieldsRule = vine.createRule((value: unknown, _: undefined, field: FieldContext) => {
  if (!Array.isArray(value)) return
  const seen = new Set<string>()
  for (const [index, item] of (value as FormField[]).entries()) {
    const at = { ...field, getFieldPath: () => `${field.getFieldPath()}.${index}.name` }
    if (seen.has(item.name)) field.report(`"${item.name}" is on the form twice.`, 'duplicate', at)
    seen.add(item.name)
    if ((RESERVED_FIELD_NAMES as readonly string[]).includes(item.name)) {
      field.report(`"${item.name}" is the page's own; name the field otherwise.`, 'reserved', at)
    }
    if (isContactField(item.name) && (item.type !== undefined || item.options !== undefined)) {
      field.report(`"${item.name}" is a contact field: it takes no type or options.`, 'contact', at)
    }
    if (item.type === 'select' && !item.options?.length) {
      field.report(`The choice "${item.name}" needs its options.`, 'options', at)
    }
  }
})

const formField = strictObject({
  name: vine
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]{0,63}$/),
  label: vine.string().trim().minLength(1).maxLength(200),
  required: flag(),
  type: vine.enum(ATTRIBUTE_TYPES).optional(),
  options: vine.array(vine.string().trim().minLength(1).maxLength(100)).maxLength(50).optional(),
}).use(documentedAs('FormField'))

const formProperties = {
  slug: slug(),
  title: vine.string().trim().minLength(1).maxLength(120),
  fields: vine.array(formField).minLength(1).maxLength(30).use(fieldsRule()),
  consent_text: vine.string().trim().minLength(20).maxLength(5000),
  thank_you_url: webUrl(2000, ['http', 'https']).nullable().optional(),
  embed_origins: vine
    .array(vine.string().trim().maxLength(300).use(originRule()))
    .maxLength(20)
    .distinct()
    .optional(),
  active: flag().optional(),
}

export const createFormValidator = vine.create(
  strictObject({ publisher_id: uuid().optional(), ...formProperties })
)

export const updateFormValidator = vine.create(
  strictObject({
    slug: formProperties.slug.optional(),
    title: formProperties.title.optional(),
    fields: formProperties.fields.optional(),
    consent_text: formProperties.consent_text.optional(),
    thank_you_url: formProperties.thank_you_url,
    embed_origins: formProperties.embed_origins,
    active: formProperties.active,
  })
)

export const listFormsValidator = vine.create(
  strictObject({ publisher_id: uuid().optional(), ...pagination })
)
