import Label from '#models/label'
import { appUrl } from '#config/app'
import { sendBrandedOrThrow } from '#mails/branded_mail'
import { brandOf } from '#services/catalogue/branding_service'
import type { PostAnswer, SaleOffer } from '#services/routing/routing_service'
import { postAnswer } from '#services/selling/post_answer'
import type { LoadedDestination } from '#services/selling/destination_store'

/**
 * An `email` destination (docs/selling.md): the lead, whole, in an e-mail to the buyer's
 * address, branded as the lead's label, HTML and text. The subject names the label only: a
 * subject line travels further than a body (mailbox lists, notifications). The SMTP server
 * taking the message is the buyer taking the lead; a refusal falls through to the next buyer.
 */
export async function emailLead(
  destination: LoadedDestination,
  offer: SaleOffer
): Promise<PostAnswer> {
  const started = performance.now()
  const label = offer.labelId ? await Label.find(offer.labelId) : null
  const brand = brandOf(label)
  const lead = offer.lead
  const facts: [string, string][] = [
    ['Name', lead.contact.name],
    ['E-mail', lead.contact.email],
    ['Phone', lead.contact.phone],
    ['Postal code', lead.contact.postal_code],
    ['Country', lead.contact.country],
    ...Object.entries(lead.attributes ?? {}).map(([key, value]) => [key, String(value)]),
    ['Source', lead.provenance.source],
    ['Campaign', lead.provenance.campaign],
    ['Landing page', lead.provenance.landing_page],
    ['Consent given', lead.consent.timestamp],
    ['Consent wording', lead.consent.text],
    ['Lead id', lead.lead_id],
  ].filter((fact): fact is [string, string] => typeof fact[1] === 'string' && fact[1] !== '')
  const to = String(destination.config.email?.to ?? '')
  const request = { method: 'SMTP', to, subject: `New lead from ${brand.name}` }
  try {
    await sendBrandedOrThrow(brand, {
      to,
      subject: request.subject,
      heading: 'A new lead for you',
      paragraphs: [
        `${brand.name} sold you this lead at ${(offer.priceCents / 100).toFixed(2)} ${offer.currency}. Its consent proof and audit trail are on its page.`,
      ],
      facts,
      action: { label: 'Open the lead', url: `${appUrl}/buyer/leads/${lead.lead_id}` },
    })
    return postAnswer('accepted', null, started, { request })
  } catch (error) {
    return postAnswer('error', 'email_not_accepted', started, {
      request,
      responseExcerpt: String((error as Error)?.message ?? error).slice(0, 2000),
    })
  }
}
