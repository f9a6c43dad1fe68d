import { BaseTransformer } from '@adonisjs/core/transformers'
import type Publisher from '#models/publisher'
import type { UploadOpening } from '#services/uploads/upload_listing'

/** A publisher the uploads page may upload for, and whether it takes uploads now (and as which leads). */
export default class UploadPublisherTransformer extends BaseTransformer<Publisher> {
  constructor(
    publisher: Publisher,
    protected openingOf: (publisher: Publisher) => UploadOpening
  ) {
    super(publisher)
  }

  toObject() {
    return {
      ...this.pick(this.resource, ['id', 'slug', 'name']),
      opening: this.openingOf(this.resource),
    }
  }
}
