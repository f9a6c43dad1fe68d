import { BaseMail } from '@adonisjs/mail'
import mail from '@adonisjs/mail/services/main'
import logger from '@adonisjs/core/services/logger'
import { readableBrandColor } from '#services/catalogue/brand_color'
import { PLATFORM_BRAND, type Brand } from '#services/catalogue/branding_service'

/** The operator's colour, for mail that carries no label. */
const SAFE_COLOR = /^#[0-9a-f]{6}$/i
const SAFE_URL = /^https?:\/\//i

export type BrandedContent = {
  to: string
  subject: string
  heading: string
  paragraphs: string[]
  action: { label: string; url: string }
  footer?: string[]
}

/**
 * The one envelope every account e-mail wears: sent in the name of the label
 * (`"Label" <configured address>`), HTML in its colour and logo, and a plain
 * text twin. The HTML escapes everything it interpolates (Edge's `{{ }}`); the
 * colour and logo address are used only when they have the shape the label
 * validator allows, since they land in a style and a src attribute.
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
    // The same readable colour the portal wears; white text on it reaches AA.
    const color = readableBrandColor(
      this.brand.primary_color && SAFE_COLOR.test(this.brand.primary_color)
        ? this.brand.primary_color
        : null
    )
    const logoUrl =
      this.brand.logo_url && SAFE_URL.test(this.brand.logo_url) ? this.brand.logo_url : null
    this.message
      .from(senderAddress(), displayName(this.brand.name))
      .to(this.content.to)
      .htmlView('emails/branded', {
        ...this.content,
        footer: this.content.footer ?? [],
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
    `${content.action.label}: ${content.action.url}`,
    '',
    ...(content.footer ?? []),
    ...(content.footer?.length ? [''] : []),
    `— ${brand.name}`,
  ].join('\n')
}
