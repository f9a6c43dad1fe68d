import vine from '@vinejs/vine'
import { uuid } from '#validators/helpers'

export const auditTrailValidator = vine.create({
  lead_id: uuid(),
  format: vine.enum(['json'] as const).optional(),
})

export const verifyTrailValidator = vine.create({
  lead_id: uuid(),
})
