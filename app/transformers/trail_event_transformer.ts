import { BaseTransformer } from '@adonisjs/core/transformers'
import type { AuditEntry } from '#services/audit/audit_chain_service'

/** One event of a lead's trail, as GET /v1/audit-logs?lead_id= lists it. */
export default class TrailEventTransformer extends BaseTransformer<AuditEntry> {
  /** `actorNames`: who each actor is, in words, for a lead's page. */
  constructor(
    entry: AuditEntry,
    protected actorNames: Record<string, string> = {}
  ) {
    super(entry)
  }

  toObject() {
    const entry = this.resource
    return {
      event: entry.event,
      ts: entry.ts,
      actor: entry.actor,
      lead_seq: entry.lead_seq,
      status_from: entry.status_from,
      status_to: entry.status_to,
      prev_hash: entry.prev_hash,
      hash: entry.hash,
    }
  }

  /** A lead's page names the people behind the actors it may name (null for the others). */
  withActorName() {
    return { ...this.toObject(), actor_name: this.actorNames[this.resource.actor] ?? null }
  }
}
