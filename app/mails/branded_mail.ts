import { BaseMail } from '@adonisjs/mail'
import mail from '@adonisjs/mail/services/main'
import logger from '@adonisjs/core/services/logger'
import { PLATFORM_BRAND, type Brand, brandLook } from '#services/catalogue/branding_service'

export type BrandedContent = {
  to: string
  subject: string
  heading: string
  paragraphs: string[]
  /** Label and value pairs shown as a table (a lead's details), after the paragraphs. */
  facts?: [label: string, value: string][]
  action: { label: string; url: string }
  footer?: string[]
}

/**
 * The one envelope every account e-mail wears: sent in the name of the label
 * (`"Label" <configured address>`), HTML in its colour and logo, and a plain
 * text twin. The HTML escapes everything it interpolates (Edge's `{{ }}`); colour and
 * logo come from `brandLook`.
 */
export default class BrandedMail extends BaseMail {
  constructor(
    protected brand: Brand,
    protected content: BrandedContent
  ) {
    super()
    this.subject = content.subject
  }

  prepare() {
    const { color, logoUrl } = brandLook(this.brand)
    this.message
      .from(senderAddress(), displayName(this.brand.name))
      .to(this.content.to)
      .htmlView('emails/branded', {
        ...this.content,
        footer: this.content.footer ?? [],
        facts: this.content.facts ?? [],
        brandName: this.brand.name,
        color,
        textColor: '#ffffff',
        logoUrl,
      })
      .text(plainText(this.brand, this.content))
  }
}

/**
 * Sends after the caller's commit. A mail server that is down must not undo
 * what the mail announces: the failure is logged (with ids, never the
 * address) and the caller says whether it went out.
 */
export async function sendBranded(
  brand: Brand,
  content: BrandedContent,
  context: Record<string, string>
) {
  try {
    await mail.send(new BrandedMail(brand, content))
    return true
  } catch (error) {
    logger.warn({ ...context, err: (error as Error).message }, 'e-mail not sent')
    return false
  }
}

/** Sends now and says why not: for a caller whose outcome is the sending (a lead e-mailed to a buyer). */
export async function sendBrandedOrThrow(brand: Brand, content: BrandedContent) {
  await mail.send(new BrandedMail(brand, content))
}

function senderAddress() {
  const from = mail.config.from
  if (!from) return 'no-reply@leadgate.local'
  return typeof from === 'string' ? from : from.address
}

/** A label's name as a display name: one line, whatever was stored. */
function displayName(name: string) {
  return name.replace(/\p{Cc}+/gu, ' ').trim() || PLATFORM_BRAND.name
}

function plainText(brand: Brand, content: BrandedContent) {
  return [
    content.heading,
    '',
    ...content.paragraphs.flatMap((paragraph) => [paragraph, '']),
    ...(content.facts ?? []).map(([label, value]) => `${label}: ${value}`),
    ...(content.facts?.length ? [''] : []),
    `${content.action.label}: ${content.action.url}`,
    '',
    ...(content.footer ?? []),
    ...(content.footer?.length ? [''] : []),
    `— ${brand.name}`,
  ].join('\n')
}
