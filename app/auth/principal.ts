import type { ComplianceScope } from '#services/access/compliance_scope'

export type Permission = 'read' | 'submit'
export type Environment = 'live' | 'sandbox'
/**
 * `label_manager`: a label's own manager, given by the operator a read-only view of that
 * label's publishers (reports and leads); `labelId` says which label.
 */
export type PrincipalKind = 'operator' | 'compliance' | 'publisher' | 'buyer' | 'label_manager'

/**
 * Who is calling, whatever the credential: an API key, an OAuth access token
 * or a portal session. Policies and services only ever see this.
 */
export default class Principal {
  constructor(
    readonly kind: PrincipalKind,
    readonly permissions: ReadonlySet<Permission>,
    readonly environment: Environment,
    /** Typed actor string for the audit trail and access log, e.g. `api_key:<id>`. */
    readonly actor: string,
    readonly publisherId: string | null = null,
    readonly buyerId: string | null = null,
    /** The API key or OAuth client behind the call; rate limits are counted per credential. */
    readonly credentialId: string | null = null,
    /** A compliance principal's limits, as the operator set them; null reaches everything. */
    readonly scope: ComplianceScope | null = null,
    /** A label manager's label; null for every other kind. */
    readonly labelId: string | null = null,
    /** The addresses the credential behind the call is bound to; empty: any. */
    readonly allowedIps: readonly string[] = []
  ) {}

  get isOperator() {
    return this.kind === 'operator'
  }

  can(permission: Permission) {
    return this.permissions.has(permission)
  }

  /**
   * The same caller in another environment. Only for a person in a portal, who sees both its
   * live and its sandbox world; a credential is bound to the environment it was made for.
   */
  in(environment: Environment) {
    return new Principal(
      this.kind,
      this.permissions,
      environment,
      this.actor,
      this.publisherId,
      this.buyerId,
      this.credentialId,
      this.scope,
      this.labelId
    )
  }

  /** True when this principal may act on resources owned by the given publisher. */
  ownsPublisher(publisherId: string | null | undefined) {
    return this.isOperator || (this.kind === 'publisher' && this.publisherId === publisherId)
  }
}
