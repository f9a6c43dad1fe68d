import { AuthorizationResponse, BasePolicy as BouncerBasePolicy } from '@adonisjs/bouncer'
import type Principal from '#auth/principal'
import type { Permission, PrincipalKind } from '#auth/principal'

/**
 * The guards every policy shares: who the caller is, which permission its
 * credential holds, and that a sandbox credential never changes live
 * configuration. A refusal carries its problem code as the translation
 * identifier; the exception handler turns it into the `code` of the 403.
 * A guard that may let the caller on returns `undefined`, so policies chain
 * them with `??`.
 */
export default abstract class BasePolicy extends BouncerBasePolicy {
  protected deny(code: string, message: string) {
    return AuthorizationResponse.deny(message, 403).t(code)
  }

  /** The caller is one of these kinds; any other is refused with the code and message. */
  protected onlyFor(
    principal: Principal,
    kinds: readonly PrincipalKind[],
    code: string,
    message: string
  ) {
    return kinds.includes(principal.kind) ? undefined : this.deny(code, message)
  }

  /** The credential holds the permission: `read` to read, `submit` to change or send. */
  protected permitted(principal: Principal, permission: Permission) {
    return (
      principal.can(permission) ||
      this.deny('permission_missing', `This credential lacks the "${permission}" permission.`)
    )
  }

  /**
   * Reading takes the `read` permission, changing takes `submit`, and sandbox
   * credentials never change live configuration.
   */
  protected changeAllowed(principal: Principal, change: boolean) {
    if (change && principal.environment === 'sandbox') {
      return this.deny(
        'environment_not_allowed',
        'Sandbox credentials cannot change live configuration.'
      )
    }
    return this.permitted(principal, change ? 'submit' : 'read')
  }

  /** The operator's alone: the catalogue (labels, buyers, routing rules) and the operator's actions. */
  protected operatorMay(principal: Principal, change: boolean) {
    return (
      this.onlyFor(
        principal,
        ['operator'],
        'operator_only',
        'Only the operator manages the catalogue.'
      ) ?? this.changeAllowed(principal, change)
    )
  }
}
