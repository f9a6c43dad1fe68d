import { BaseTransformer } from '@adonisjs/core/transformers'
import type Label from '#models/label'
import { isoTime } from '#services/sql/timestamps'
import { saleSettingsToJson } from '#services/routing/sale_settings'

export default class LabelTransformer extends BaseTransformer<Label> {
  toObject() {
    const label = this.resource
    return {
      id: label.id,
      slug: label.slug,
      name: label.name,
      branding: label.branding,
      custom_host: label.customHost ?? null,
      locale: label.locale,
      time_zone: label.timeZone,
      sale: saleSettingsToJson(label.sale),
      created_at: isoTime(label.createdAt),
    }
  }

  /** A label a page is about, by name (its settlement rules, its plugins, its retention). */
  toReference() {
    return this.pick(this.resource, ['id', 'slug', 'name'])
  }

  /** A label as a picker's option: the slug the API takes, the name a person reads. */
  toChoice() {
    return { value: this.resource.slug, label: this.resource.name }
  }
}
