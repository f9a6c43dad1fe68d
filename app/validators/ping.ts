import ApiProblem from '#exceptions/api_problem'
import { countryCode, documentedAs, slug, strictObject } from '#validators/helpers'
import { attributes, provenance } from '#validators/lead'
import vine from '@vinejs/vine'
import { CONTACT_FIELDS } from '#services/selling/ping_fields'

/**
 * `POST /v1/pings`: a partial lead, no contact but where (DESIGN §14, "Inbound ping-post").
 * The fields a lead posted on the ping's offer must repeat, as they are here.
 */
export const pingValidator = vine.create(
  strictObject({
    publisher: slug(),
    provenance: provenance().optional(),
    contact: strictObject({
      postal_code: vine.string().trim().maxLength(16).optional(),
      country: countryCode().optional(),
    })
      .use(documentedAs('PingContact'))
      .optional(),
    attributes: attributes().optional(),
  })
)

/**
 * A ping that carries a name, an e-mail or a phone is refused as such, before validation: what
 * identifies a consumer never reaches an auction, and the answer says which field to drop.
 */
export function refuseContactInPing(body: unknown) {
  const contact = (body as { contact?: unknown } | null)?.contact
  if (!contact || typeof contact !== 'object') return
  const present = CONTACT_FIELDS.filter((field) => field in contact)
  if (present.length === 0) return
  throw new ApiProblem(
    422,
    'contact_not_allowed',
    'Unprocessable content',
    'A ping carries no name, e-mail or phone: send them only in the lead you post with the ping_id.',
    {
      errors: present.map((field) => ({
        field: `contact.${field}`,
        code: 'contact_not_allowed',
        message: `Drop contact.${field} from the ping; post it with the lead.`,
      })),
    }
  )
}
