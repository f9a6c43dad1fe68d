import db from '@adonisjs/lucid/services/db'
import Publisher from '#models/publisher'
import { normaliseEmail } from '#services/quality/normalise'
import { toE164 } from '#services/quality/phone'
import { quoteIdent } from '#services/platform/tenancy_service'
import { containing } from '#services/sql/like_pattern'

/** Who a request is about, as the caller typed it. */
export type Subject = { email?: string | null; phone?: string | null }

/** The subject's duplicate keys in one publisher's schema (a phone is read in its country). */
export type SubjectKeys = { emailKey: string | null; phoneKey: string | null }

export type SubjectHoldings = {
  publisher: Publisher
  keys: SubjectKeys
  leadIds: string[]
  /** Upload rows that name the subject, whether they became a lead or not. */
  uploadRows: number
}

/** Schemas per statement: one UNION ALL over many schemas instead of a round trip each. */
const SCHEMAS_PER_QUERY = 200

/**
 * Keys as intake writes them (quality/normalise.ts), so a request finds exactly the leads
 * the duplicate screen would: lower-cased e-mail, E.164 phone in the publisher's country.
 */
export function subjectKeys(subject: Subject, country: string): SubjectKeys {
  return {
    emailKey: subject.email ? normaliseEmail(subject.email) : null,
    phoneKey: subject.phone ? toE164(subject.phone, country) : null,
  }
}

/** Every publisher schema holding leads or upload rows of the subject, live and sandbox. */
export async function findSubject(subject: Subject): Promise<SubjectHoldings[]> {
  const publishers = await Publisher.query().orderBy('id')
  const found: SubjectHoldings[] = []
  for (let start = 0; start < publishers.length; start += SCHEMAS_PER_QUERY) {
    const chunk = publishers.slice(start, start + SCHEMAS_PER_QUERY)
    const bindings: unknown[] = []
    const selects = chunk.map((publisher) => {
      const keys = subjectKeys(subject, publisher.country)
      const schema = quoteIdent(publisher.schemaName)
      // Rows not validated yet have no keys: their cells are searched for the e-mail as typed.
      const cells = keys.emailKey ? containing(keys.emailKey) : null
      bindings.push(publisher.id, keys.emailKey, keys.phoneKey)
      bindings.push(publisher.id, keys.emailKey, keys.phoneKey, cells)
      return `SELECT ?::uuid AS publisher_id, id AS lead_id FROM ${schema}.leads
               WHERE email_key = ? OR phone_key = ?
              UNION ALL
              SELECT ?::uuid, NULL FROM ${schema}.upload_rows
               WHERE lead_id IS NULL AND (email_key = ? OR phone_key = ? OR raw::text ILIKE ?)`
    })
    const result = await db.rawQuery(selects.join('\nUNION ALL\n'), bindings)
    for (const publisher of chunk) {
      const rows = result.rows.filter((row: any) => row.publisher_id === publisher.id)
      if (rows.length === 0) continue
      found.push({
        publisher,
        keys: subjectKeys(subject, publisher.country),
        leadIds: [
          ...new Set<string>(rows.filter((r: any) => r.lead_id).map((r: any) => r.lead_id)),
        ],
        uploadRows: rows.filter((row: any) => !row.lead_id).length,
      })
    }
  }
  return found
}
