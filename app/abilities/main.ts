import { Bouncer } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'

/**
 * Exports for compliance audits: the operator and compliance officers, and a
 * publisher for its own leads (checked where the export is scoped).
 */
export const exportAudit = Bouncer.ability((principal: Principal) => {
  return principal.can('read')
})
