/**
 * Every column where personal data can land, with its category (the retention period that
 * applies), who can read it and what removes it. docs/privacy.md is this map in words; the
 * inventory test fails when a column that looks like contact data appears without an entry, so
 * a new copy of personal data is never forgotten by retention and erasure.
 *
 * `tenant.` is every publisher's schema (`pub_<id>`); `public.` and `audit.` are shared.
 */
export const DATA_CATEGORIES = [
  'contact',
  'ip',
  'attributes',
  'consent_wording',
  'uploads',
  'webhook_payload',
  'access_log',
  'free_text',
  'account',
  'business_contact',
  'not_personal',
] as const
export type DataCategory = (typeof DATA_CATEGORIES)[number]

export type InventoryEntry = {
  category: DataCategory
  readers: string
  /** What removes or minimises it: a retention category, the subject's erasure, or why it stays. */
  removal: string
}

const LEAD_READERS = 'the publisher (own), the buyer it was delivered to, the operator, compliance'
const OPERATOR = 'the operator'

export const INVENTORY: Record<string, InventoryEntry> = {
  'tenant.leads.contact': {
    category: 'contact',
    readers: LEAD_READERS,
    removal: 'contact_days; erasure',
  },
  'tenant.leads.email_key': {
    category: 'contact',
    readers: 'nobody through the API (duplicate screen)',
    removal: 'contact_days; erasure',
  },
  'tenant.leads.phone_key': {
    category: 'contact',
    readers: 'nobody through the API (duplicate screen)',
    removal: 'contact_days; erasure',
  },
  'tenant.leads.consent': {
    category: 'ip',
    readers: LEAD_READERS,
    removal: 'ip_days removes consent.ip; erasure (given, wording and time stay)',
  },
  'tenant.leads.attributes': {
    category: 'attributes',
    readers: LEAD_READERS,
    removal: 'attributes_days; erasure',
  },
  'tenant.leads.provenance': {
    category: 'not_personal',
    readers: LEAD_READERS,
    removal: 'kept: source, campaign and landing page describe the channel, not the person',
  },
  'tenant.leads.quality_check': {
    category: 'not_personal',
    readers: LEAD_READERS,
    removal: 'kept: outcomes only',
  },
  'tenant.leads.reasons': {
    category: 'free_text',
    readers: LEAD_READERS,
    removal: "erasure clears a reviewer's message; rule messages name fields, never values",
  },
  'tenant.leads.review': {
    category: 'free_text',
    readers: OPERATOR,
    removal: "erasure clears the reviewer's note",
  },
  'tenant.lead_secrets.salt': {
    category: 'contact',
    readers: 'nobody (links the consent commitments to the person)',
    removal: 'contact_days; erasure destroys it',
  },
  'tenant.uploads.filename': {
    category: 'uploads',
    readers: 'the publisher (own), the operator',
    removal: 'uploads_days',
  },
  'tenant.uploads.columns': {
    category: 'uploads',
    readers: 'the publisher (own), the operator',
    removal: 'uploads_days',
  },
  'tenant.uploads.requested_mapping': {
    category: 'not_personal',
    readers: 'the publisher (own), the operator',
    removal: 'kept: column names to lead fields',
  },
  'tenant.upload_rows.raw': {
    category: 'uploads',
    readers: 'the publisher (own), the operator',
    removal: 'uploads_days; erasure',
  },
  'tenant.upload_rows.email_key': {
    category: 'uploads',
    readers: 'nobody through the API',
    removal: 'uploads_days; erasure',
  },
  'tenant.upload_rows.phone_key': {
    category: 'uploads',
    readers: 'nobody through the API',
    removal: 'uploads_days; erasure',
  },
  'tenant.upload_rows.reasons': {
    category: 'not_personal',
    readers: 'the publisher (own), the operator',
    removal: 'kept: rule codes and messages naming fields',
  },
  'tenant.dispute_messages.text': {
    category: 'free_text',
    readers: "the dispute's buyer and publisher, the operator",
    removal: 'erasure',
  },
  'tenant.dispute_files.filename': {
    category: 'free_text',
    readers: "the dispute's buyer and publisher, the operator",
    removal: 'erasure',
  },
  'tenant.dispute_files.content': {
    category: 'free_text',
    readers: "the dispute's buyer and publisher, the operator",
    removal: 'erasure (the audit trail keeps only its SHA-256)',
  },
  'tenant.sale_attempts.request': {
    category: 'webhook_payload',
    readers: 'the buyer it went to (its own attempt), the operator',
    removal: 'webhook_payload_days; erasure (the lead as posted to a buyer, secrets masked)',
  },
  'tenant.sale_attempts.response_excerpt': {
    category: 'webhook_payload',
    readers: 'the buyer that answered (its own attempt), the operator',
    removal: 'webhook_payload_days; erasure',
  },
  'tenant.sale_attempts.reason': {
    category: 'webhook_payload',
    readers: 'the buyer that answered (its own attempt), the operator',
    removal: "webhook_payload_days and erasure keep Leadgate's own codes, drop a buyer's words",
  },
  'tenant.sale_attempts.buyer_lead_id': {
    category: 'not_personal',
    readers: 'the buyer (its own id for the lead), the operator',
    removal: "kept: the buyer's record id, not the person",
  },
  'tenant.sale_attempts.caps': {
    category: 'not_personal',
    readers: 'the operator',
    removal: 'kept: the cap counters an offer held (rule ids and periods)',
  },
  'public.lead_fingerprints.digest': {
    category: 'contact',
    readers: "nobody: the platform compares them (duplicates across publishers, a buyer's window)",
    removal: 'contact_days; erasure (keyed HMAC-SHA256 of the e-mail or phone, never the value)',
  },
  'public.destinations.name': {
    category: 'not_personal',
    readers: 'the buyer, the operator',
    removal: 'kept: a name for a system, given by the buyer or the operator',
  },
  'public.destinations.config': {
    category: 'business_contact',
    readers: 'the buyer, the operator',
    removal:
      "kept while the destination exists: a buyer's system and, for e-mail, its business address",
  },
  'public.destinations.secrets': {
    category: 'not_personal',
    readers: 'nobody (encrypted; the sale opens them to post)',
    removal: 'deleted with the destination',
  },
  'public.destinations.signing_secret': {
    category: 'not_personal',
    readers: 'nobody (encrypted; shown once to the buyer)',
    removal: 'deleted with the destination',
  },
  'public.outbox_events.payload': {
    category: 'webhook_payload',
    readers: 'the subscribed endpoints (sent), their owners in the delivery log, the operator',
    removal: 'webhook_payload_days minimises; erasure',
  },
  'public.webhook_attempts.response_excerpt': {
    category: 'webhook_payload',
    readers: "the endpoint's owner, the operator",
    removal: 'webhook_payload_days; erasure',
  },
  'public.webhook_attempts.error_detail': {
    category: 'webhook_payload',
    readers: "the endpoint's owner, the operator",
    removal: 'webhook_payload_days; erasure',
  },
  'public.idempotency_keys.response_body': {
    category: 'free_text',
    readers: 'the credential that sent the request (a repeated request)',
    removal: 'kept 24 hours; erasure',
  },
  'public.access_log.details': {
    category: 'access_log',
    readers: 'the operator, compliance, the publisher (about itself)',
    removal: 'access_log_days; erasure of entries naming the subject',
  },
  'public.privacy_requests.subject_sealed': {
    category: 'contact',
    readers: 'nobody (encrypted, until the request has run)',
    removal: 'cleared when the request completes',
  },
  'public.privacy_requests.result': {
    category: 'contact',
    readers: OPERATOR,
    removal: 'an access document expires; erasing the subject removes earlier documents',
  },
  'public.form_consent_versions.text': {
    category: 'consent_wording',
    readers: 'anyone (the published form), the operator',
    removal: 'kept: the wording is evidence and names no consumer',
  },
  'audit.consent_texts.text': {
    category: 'consent_wording',
    readers: 'whoever may read a lead agreeing to it',
    removal: 'kept (append-only): the wording names no consumer',
  },
  'audit.consent_evidence.ip_commitment': {
    category: 'not_personal',
    readers: LEAD_READERS,
    removal: 'kept: unlinkable once the salt is destroyed',
  },
  'audit.consent_evidence.email_commitment': {
    category: 'not_personal',
    readers: LEAD_READERS,
    removal: 'kept: unlinkable once the salt is destroyed',
  },
  'audit.consent_evidence.phone_commitment': {
    category: 'not_personal',
    readers: LEAD_READERS,
    removal: 'kept: unlinkable once the salt is destroyed',
  },
  'audit.consent_evidence.page_url': {
    category: 'not_personal',
    readers: LEAD_READERS,
    removal: 'kept (append-only): the landing page without its query or fragment',
  },
  'audit.consent_evidence.text_digest': {
    category: 'not_personal',
    readers: LEAD_READERS,
    removal: 'kept: the SHA-256 of the wording',
  },
  'tenant.dispute_files.content_type': {
    category: 'not_personal',
    readers: "the dispute's buyer and publisher, the operator",
    removal: 'kept: a media type',
  },
  'public.plugin_lead_syncs.details': {
    category: 'free_text',
    readers: OPERATOR,
    removal: 'erasure (what an adapter noted about the record it made elsewhere)',
  },
  'public.calls.recording_url': {
    category: 'contact',
    readers: "the lead's readers (GET /v1/leads/{id}/calls)",
    removal: 'erasure (the recording itself lives with the call-tracking vendor)',
  },
  'audit.checkpoints.note': {
    category: 'not_personal',
    readers: 'anyone with a proof',
    removal: 'kept: signed tree heads',
  },
  'audit.sealer_runs.pending_snapshot': {
    category: 'not_personal',
    readers: 'nobody through the API',
    removal: 'kept: the sealer’s bookkeeping',
  },
  'public.users.email': {
    category: 'account',
    readers: 'the user, the operator, the publisher (its own users)',
    removal: 'while the account exists',
  },
  'public.users.full_name': {
    category: 'account',
    readers: 'the user, the operator, the publisher (its own users)',
    removal: 'while the account exists',
  },
  'public.user_sessions.user_agent': {
    category: 'account',
    readers: 'the user (a coarse device)',
    removal: 'while the session is kept',
  },
  'public.publisher_invitations.email': {
    category: 'business_contact',
    readers: OPERATOR,
    removal: 'while the publisher exists',
  },
  'public.publishers.contact_email': {
    category: 'business_contact',
    readers: 'the publisher, the operator',
    removal: 'while the publisher exists',
  },
  'public.buyers.contact_email': {
    category: 'business_contact',
    readers: OPERATOR,
    removal: 'while the buyer exists',
  },
  'public.api_keys.allowed_ips': {
    category: 'business_contact',
    readers: "the key's owner, the operator",
    removal: 'while the key exists',
  },
  'public.oauth_clients.allowed_ips': {
    category: 'business_contact',
    readers: "the client's owner, the operator",
    removal: 'while the client exists',
  },
}

/** Names of the catalogue (labels, publishers, keys, forms…): businesses and things, not consumers. */
for (const column of [
  'public.labels.name',
  'public.publishers.name',
  'public.publishers.schema_name',
  'public.buyers.name',
  'public.api_keys.name',
  'public.oauth_clients.name',
  'public.forms.fields',
  'public.webhook_endpoints.url',
  'public.labels.custom_host',
  'public.forms.thank_you_url',
  'tenant.tenant_migrations.name',
  'public.adonis_schema.name',
]) {
  INVENTORY[column] ??= {
    category: 'not_personal',
    readers: 'per the catalogue',
    removal: 'kept: names a business or a thing',
  }
}

/** Column names that suggest contact data: each such column must be in the inventory. */
const SUSPECT_WORDS = new Set([
  'email',
  'phone',
  'name',
  'ip',
  'ips',
  'address',
  'raw',
  'payload',
  'body',
  'text',
  'excerpt',
  'contact',
  'attributes',
  'consent',
  'details',
  'detail',
  'content',
  'filename',
  'note',
  'url',
  'agent',
  'salt',
  'snapshot',
  'commitment',
  'review',
])

/** Types that can hold words; numbers, ids, times and flags cannot hold contact data. */
export const TEXT_TYPES = new Set([
  'text',
  'character varying',
  'character',
  'jsonb',
  'json',
  'bytea',
  'ARRAY',
  'inet',
])

export function looksPersonal(column: string) {
  return column.split('_').some((word) => SUSPECT_WORDS.has(word))
}

/** `tenant.` for every publisher schema, else the schema itself. */
export function inventoryKey(schema: string, table: string, column: string) {
  return `${schema.startsWith('pub_') ? 'tenant' : schema}.${table}.${column}`
}
