import db from '@adonisjs/lucid/services/db'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import type TenancyService from '#services/platform/tenancy_service'
import { toE164 } from '#services/quality/phone'
import callsConfig from '#config/calls'

export type Match =
  | { status: 'attached'; leadId: string; publisherId: string; matchedBy: 'lead_id' | 'phone' }
  | { status: 'unmatched' | 'ambiguous'; candidates: string[] }

/**
 * The lead a call belongs to, by phone: the caller's number (normalised as
 * intake normalises a lead's, in E.164) against the leads that arrived in the
 * window before the call, among those the principal may see. Exactly one
 * attaches; several are reported as ambiguous, never guessed.
 */
export async function matchByPhone(
  principal: Principal,
  tenancy: TenancyService,
  caller: string,
  startedAt: Date,
  country: string | null
): Promise<Match> {
  const from = new Date(startedAt.getTime() - callsConfig.matchWindowHours * 3_600_000)
  const publishers = await candidatePublishers(principal, from, startedAt)
  const found: { leadId: string; publisherId: string }[] = []
  for (const publisher of publishers) {
    const phone = toE164(caller, country ?? publisher.country ?? callsConfig.defaultCountry)
    if (!phone) continue
    const rows: { id: string }[] = await tenancy.run(publisher, (trx) =>
      trx
        .from('leads')
        .where('phone_key', phone)
        .where('environment', principal.environment)
        .whereBetween('created_at', [from, startedAt])
        .select('id')
        .limit(10)
    )
    found.push(...rows.map((row) => ({ leadId: row.id, publisherId: publisher.id })))
  }
  if (found.length === 1) return { status: 'attached', ...found[0], matchedBy: 'phone' }
  return {
    status: found.length === 0 ? 'unmatched' : 'ambiguous',
    candidates: found.map((row) => row.leadId),
  }
}

/** A publisher searches its own leads; the operator the publishers with leads in the window. */
async function candidatePublishers(principal: Principal, from: Date, to: Date) {
  if (principal.kind === 'publisher') {
    return Publisher.query().where(
      'id',
      principal.publisherId ?? '00000000-0000-0000-0000-000000000000'
    )
  }
  const ids = db
    .from('lead_facts')
    .distinct('publisher_id')
    .where('environment', principal.environment)
    .whereBetween('created_at', [from, to])
  return Publisher.query().whereIn('id', ids)
}
