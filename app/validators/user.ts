import vine from '@vinejs/vine'
import {
  complianceScope,
  documentedAs,
  email,
  name,
  password,
  permissions,
  requiredWhen,
  slug,
  strictObject,
  uuid,
} from '#validators/helpers'

const role = () =>
  vine
    .enum([
      'operator_admin',
      'compliance_officer',
      'publisher_user',
      'buyer_user',
      'label_manager',
    ] as const)
    .use(documentedAs('UserRole'))

export const createUserValidator = vine.create(
  strictObject({
    email: email(),
    // Left out, the user is invited by e-mail to choose its own.
    password: password().optional(),
    full_name: name().optional(),
    role: role(),
    publisher_id: requiredWhen(uuid(), 'role', 'publisher_user'),
    buyer_id: requiredWhen(uuid(), 'role', 'buyer_user'),
    // A label manager reads the reports and leads of this label's publishers (by slug).
    label: requiredWhen(slug(), 'role', 'label_manager'),
    permissions: permissions().optional(),
    // A compliance officer's limits: publishers, labels, period (operator only).
    scope: complianceScope().optional(),
  })
)

export const updateUserValidator = vine.create(
  strictObject({
    role: role().optional(),
    permissions: permissions().optional(),
    disabled: vine.boolean({ strict: true }).optional(),
    // null lifts a compliance officer's limits.
    scope: complianceScope().nullable().optional(),
  })
)
