import type Label from '#models/label'
import { saleSettingsToJson } from '#services/routing/sale_settings'

export function labelToJson(label: Label) {
  return {
    id: label.id,
    slug: label.slug,
    name: label.name,
    branding: label.branding,
    custom_host: label.customHost ?? null,
    locale: label.locale,
    time_zone: label.timeZone,
    sale: saleSettingsToJson(label.sale),
    created_at: label.createdAt.toUTC().toISO(),
  }
}
