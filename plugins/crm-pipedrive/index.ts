import {
  PluginFailure,
  mapFields,
  type LeadgatePlugin,
  type PluginContext,
} from '#plugins/contract'

type PipedriveSettings = {
  api_token: string
  api_base: string
  person_mapping: Record<string, string>
}

function settingsOf(context: PluginContext) {
  return context.settings as PipedriveSettings
}

/** Pipedrive takes the token as a header (`x-api-token`), which keeps it out of URLs and logs. */
function call(context: PluginContext, path: string, body?: unknown) {
  const settings = settingsOf(context)
  return context.http
    .json(`${settings.api_base}${path}`, {
      headers: { 'x-api-token': settings.api_token },
      body,
    })
    .catch(withPipedriveRetry)
}

/** A burst-limit 429 says when the window resets in `x-ratelimit-reset` (seconds) when Retry-After is absent. */
function withPipedriveRetry(error: unknown): never {
  if (error instanceof PluginFailure && error.details.status === 429 && !error.details.retryAfter) {
    throw new PluginFailure(error.message, { ...error.details, retryAfter: '2' })
  }
  throw error
}

/** The lead's title carries the Leadgate id: how a replay finds the lead it made before. */
const titleOf = (leadId: string) => `Leadgate ${leadId}`

async function findPerson(context: PluginContext, email: string) {
  const query = new URLSearchParams({ term: email, fields: 'email', exact_match: 'true' })
  const found = await call(context, `/api/v2/persons/search?${query}`)
  const id = found?.data?.items?.[0]?.item?.id
  return id === undefined ? null : Number(id)
}

async function findLead(context: PluginContext, leadId: string) {
  const query = new URLSearchParams({ term: leadId, fields: 'title', exact_match: 'false' })
  const found = await call(context, `/v1/leads/search?${query}`)
  const item = found?.data?.items?.find((entry: any) => entry?.item?.title === titleOf(leadId))
  return item ? String(item.item.id) : null
}

async function createPerson(context: PluginContext, fields: Record<string, string>) {
  const { name, email, phone, ...custom } = fields
  const created = await call(context, '/api/v2/persons', {
    name: name ?? email,
    emails: [{ value: email, primary: true, label: 'work' }],
    ...(phone ? { phones: [{ value: phone, primary: true, label: 'mobile' }] } : {}),
    ...(Object.keys(custom).length ? { custom_fields: custom } : {}),
  })
  return Number(created?.data?.id)
}

async function createLead(context: PluginContext, leadId: string, personId: number) {
  const created = await call(context, '/v1/leads', { title: titleOf(leadId), person_id: personId })
  return created?.data?.id ? String(created.data.id) : null
}

const plugin: LeadgatePlugin = {
  manifest: {
    name: 'crm-pipedrive',
    version: '1.0.0',
    kind: 'crm',
    description:
      'Creates a Pipedrive person (found again by e-mail, never twice) and a lead for it, with an API token.',
    events: ['lead.received', 'match.found'],
    defaultEvents: ['match.found'],
    settings: {
      api_token: {
        type: 'string',
        label: 'API token',
        description: "A Pipedrive user's personal API token.",
        required: true,
        secret: true,
      },
      api_base: {
        type: 'string',
        label: 'Company domain URL',
        description: 'e.g. https://yourcompany.pipedrive.com',
        format: 'url',
        required: true,
      },
      person_mapping: {
        type: 'mapping',
        label: 'Person fields',
        description: 'Pipedrive person field → lead field (`name`, `email`, `phone` are built in).',
        default: { name: 'contact.name', email: 'contact.email', phone: 'contact.phone' },
      },
    },
  },

  /**
   * Dedupe by e-mail (a person found is reused) and by the lead's title (a
   * lead found is not made again), so a retry or a replay never duplicates
   * either, even after a crash between the call and the write-back. Pipedrive
   * has no upsert: the find and the create run one delivery at a time per
   * e-mail, or two leads of one person delivered at once would make two.
   */
  async handle(event, context) {
    const leadId = String(event.data.lead_id ?? '')
    const lead = leadId ? await context.lead(leadId) : null
    if (!lead) return
    const settings = settingsOf(context)
    const fields = mapFields(lead, settings.person_mapping)
    if (!fields.email) return

    const email = fields.email
    await context.exclusive(`person:${email.toLowerCase()}`, async () => {
      if (await context.previousSync(leadId)) return
      const personId = (await findPerson(context, email)) ?? (await createPerson(context, fields))
      if (!Number.isFinite(personId)) throw new PluginFailure('Pipedrive made no person')

      const pipedriveLead =
        (await findLead(context, leadId)) ?? (await createLead(context, leadId, personId))
      if (!pipedriveLead) throw new PluginFailure('Pipedrive made no lead')
      await context.recordSync(leadId, String(pipedriveLead), {
        object: 'lead',
        person_id: personId,
      })
    })
  },

  async testConnection(context) {
    await call(context, '/v1/users/me')
    return { ok: true, detail: 'Pipedrive accepted the token.' }
  },
}

export default plugin
