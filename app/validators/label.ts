import vine from '@vinejs/vine'
import { name, pagination, slug, strictObject } from '#validators/helpers'

export const createLabelValidator = vine.create(
  strictObject({
    slug: slug(),
    name: name(),
    branding: strictObject({
      logo_url: vine
        .string()
        .trim()
        .maxLength(2048)
        .url({ protocols: ['http', 'https'], require_protocol: true })
        .optional(),
      // Stored in lower case so one colour has one spelling.
      primary_color: vine
        .string()
        .trim()
        .regex(/^#[0-9a-fA-F]{6}$/)
        .toLowerCase()
        .optional(),
    }).optional(),
  })
)

export const listLabelsValidator = vine.create(strictObject({ ...pagination }))
