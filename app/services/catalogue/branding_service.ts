import type Label from '#models/label'
import Publisher from '#models/publisher'
import { readableBrandColor } from '#services/catalogue/brand_color'

const SAFE_COLOR = /^#[0-9a-f]{6}$/i
const SAFE_URL = /^https?:\/\//i

/** What a page or an e-mail shows as its maker: the label's brand, or the operator's. */
export type Brand = { name: string; logo_url: string | null; primary_color: string | null }

export const PLATFORM_BRAND: Brand = { name: 'Leadgate', logo_url: null, primary_color: null }

export function brandOf(label: Label | null | undefined): Brand {
  if (!label) return PLATFORM_BRAND
  return {
    name: label.name,
    logo_url: label.branding?.logo_url ?? null,
    primary_color: label.branding?.primary_color ?? null,
  }
}

/**
 * A publisher's people see its label's brand; operators, compliance officers and buyers
 * (who buy across labels) see the operator's.
 */
export async function brandForPublisher(publisherId: string | null | undefined) {
  if (!publisherId) return PLATFORM_BRAND
  const publisher = await Publisher.query().where('id', publisherId).preload('label').first()
  return brandOf(publisher?.label)
}

/**
 * The colour and logo a server-rendered page or an e-mail wears: the same
 * readable colour as the portal (white text on it reaches AA), and each
 * value only when it has the shape the label validator allows, since they
 * land in a style and a src attribute.
 */
export function brandLook(brand: Brand) {
  return {
    color: readableBrandColor(
      brand.primary_color && SAFE_COLOR.test(brand.primary_color) ? brand.primary_color : null
    ),
    logoUrl: brand.logo_url && SAFE_URL.test(brand.logo_url) ? brand.logo_url : null,
  }
}
