import vine from '@vinejs/vine'
import { environment, periodBound, slug, strictObject, uuid } from '#validators/helpers'

export const auditTrailValidator = vine.create({
  lead_id: uuid(),
  format: vine.enum(['json'] as const).optional(),
})

/** Without `lead_id`: the whole log (operator). */
export const verifyTrailValidator = vine.create({
  lead_id: uuid().optional(),
})

/** `GET /v1/audit-logs` without `lead_id`: an export over these filters. */
export const auditExportValidator = vine.create(
  strictObject({
    format: vine.enum(['json', 'csv'] as const).optional(),
    from: periodBound().optional(),
    to: periodBound().optional(),
    publisher: slug().optional(),
    label: slug().optional(),
    buyer: uuid().optional(),
    environment: environment().optional(),
  })
)

export const proofValidator = vine.create({
  lead_id: uuid(),
})

const treeSize = () => vine.number().withoutDecimals().min(0).max(Number.MAX_SAFE_INTEGER)

export const consistencyValidator = vine.create({
  from: treeSize(),
  to: treeSize(),
})
