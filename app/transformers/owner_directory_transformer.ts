import { BaseTransformer } from '@adonisjs/core/transformers'
import type { OwnerDirectory } from '#services/catalogue/owner_directory'

/** The names the operator's forms choose an owner among (publishers and buyers, by id). */
export default class OwnerDirectoryTransformer extends BaseTransformer<OwnerDirectory> {
  toObject() {
    return this.pick(this.resource, ['publishers', 'buyers'])
  }
}
