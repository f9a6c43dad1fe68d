import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type Publisher from '#models/publisher'
import TenancyService from '#services/platform/tenancy_service'
import { createKey, createPublisher } from '#tests/support/fixtures'
import { eventually } from '#tests/support/webhooks'

/** Duplicates of e-mail and phone rejected; a monthly bill under 80 flagged. */
export const UPLOAD_RULES = {
  duplicates: { window_days: 30, keys: ['contact.email', 'contact.phone'], action: 'reject' },
  target_audience: [{ field: 'attributes.monthly_bill', op: 'gte', value: 80, action: 'flag' }],
}

export const CONSENT_TEXT = 'I agree that Demo Energy may contact me about my energy contract.'

/** A live publisher that delivers by upload (and API), with a live key with read and submit. */
export async function uploadingPublisher(
  rules: Record<string, unknown> = UPLOAD_RULES,
  methods: ('api' | 'upload' | 'form')[] = ['api', 'upload']
) {
  const publisher = await createPublisher()
  publisher.merge({ status: 'live', deliveryMethods: methods, qualityRules: rules as any })
  await publisher.save()
  const { secret } = await createKey({ publisherId: publisher.id })
  return { publisher, key: secret }
}

let serial = 0
/** A valid row's cells for the default header, with a fresh e-mail and phone. */
export function validRow(overrides: Record<string, string> = {}) {
  serial++
  const n = String(((process.pid * 7919 + serial * 104_729) % 9_000_000) + 1_000_000)
  return {
    name: 'Jan Jansen',
    email: `row.${n}@example.nl`,
    phone: `+3161${n.slice(0, 7)}`,
    zip: '1012 AB',
    country: 'NL',
    utm_source: 'facebook',
    consent_given: 'yes',
    consent_text: CONSENT_TEXT,
    consent_timestamp: new Date(Date.now() - 3_600_000).toISOString(),
    consent_ip: '203.0.113.9',
    monthly_bill: '120',
    ...overrides,
  }
}

/** Rows as CSV text with the given delimiter (cells quoted when they need it). */
export function csvOf(rows: Record<string, string>[], delimiter = ',') {
  const header = Object.keys(rows[0])
  const cell = (value: string) =>
    /["\n\r]/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value
  return [header, ...rows.map((row) => header.map((name) => row[name] ?? ''))]
    .map((cells) => cells.map(cell).join(delimiter))
    .join('\r\n')
}

export async function upload(
  client: any,
  key: string,
  file: Buffer | string,
  options: { filename?: string; mapping?: unknown; publisher?: string } = {}
) {
  let request = client.post('/v1/uploads').bearerToken(key)
  if (options.publisher) request = request.field('publisher', options.publisher)
  if (options.mapping !== undefined) {
    request = request.field(
      'mapping',
      typeof options.mapping === 'string' ? options.mapping : JSON.stringify(options.mapping)
    )
  }
  return request.file('file', Buffer.from(file), { filename: options.filename ?? 'leads.csv' })
}

/** Waits for the upload to reach `status`, answering it. */
export async function uploadIn(
  client: any,
  key: string,
  id: string,
  status: string,
  timeoutMs = 30_000
) {
  return eventually(
    async () => {
      const body = (await client.get(`/v1/uploads/${id}`).bearerToken(key)).body()
      return body.status === status ? body : null
    },
    `upload ${id} ${status}`,
    timeoutMs
  )
}

export async function allRows(client: any, key: string, id: string) {
  const rows: any[] = []
  let cursor: string | null = null
  do {
    const answer: any = (
      await client
        .get(`/v1/uploads/${id}/rows`)
        .bearerToken(key)
        .qs({ limit: 200, ...(cursor ? { cursor } : {}) })
    ).body()
    rows.push(...answer.data)
    cursor = answer.next_cursor
  } while (cursor)
  return rows
}

export async function tenantRows(publisher: Publisher, table: string) {
  const tenancy = await app.container.make(TenancyService)
  return tenancy.run(publisher, (trx) => trx.from(table).select('*'))
}

export async function leadsOf(publisher: Publisher) {
  return tenantRows(publisher, 'leads')
}

export async function auditActors(leadIds: string[]) {
  return db.from('audit.entries').whereIn('lead_id', leadIds).select('event', 'actor', 'lead_id')
}
