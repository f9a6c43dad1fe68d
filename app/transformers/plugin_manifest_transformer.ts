import { BaseTransformer } from '@adonisjs/core/transformers'
import type { PluginManifest } from '#plugins/contract'

/** A plugin this installation of Leadgate loaded: what it does, its events and its settings schema. */
export default class PluginManifestTransformer extends BaseTransformer<PluginManifest> {
  toObject() {
    return { ...this.resource }
  }
}
