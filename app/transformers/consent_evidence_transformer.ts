import { BaseTransformer } from '@adonisjs/core/transformers'
import { isoTime } from '#services/sql/timestamps'

type Evidence = {
  method: string
  text: string | null
  text_version: number
  text_digest: string
  page_url: string | null
  consented_at: Date | string
  ip_commitment: string | null
  email_commitment: string | null
  phone_commitment: string | null
}

/** A lead's consent evidence: the wording and how it was given, with commitments in place of the IP, e-mail and phone. */
export default class ConsentEvidenceTransformer extends BaseTransformer<Evidence> {
  toObject() {
    const evidence = this.resource
    return {
      method: evidence.method,
      text: evidence.text,
      text_version: evidence.text_version,
      text_digest: evidence.text_digest,
      page_url: evidence.page_url,
      consented_at: isoTime(evidence.consented_at),
      ip_commitment: evidence.ip_commitment,
      email_commitment: evidence.email_commitment,
      phone_commitment: evidence.phone_commitment,
    }
  }
}
