import type Label from '#models/label'

export function labelToJson(label: Label) {
  return {
    id: label.id,
    slug: label.slug,
    name: label.name,
    branding: label.branding,
    custom_host: label.customHost ?? null,
    locale: label.locale,
    time_zone: label.timeZone,
    created_at: label.createdAt.toUTC().toISO(),
  }
}
