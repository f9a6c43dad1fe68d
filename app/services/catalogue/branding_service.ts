import type Label from '#models/label'
import Publisher from '#models/publisher'

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
