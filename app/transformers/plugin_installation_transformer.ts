import { BaseTransformer } from '@adonisjs/core/transformers'
import type PluginService from '#services/plugins/plugin_service'

type Installation = Awaited<ReturnType<PluginService['toJson']>>

/**
 * A label's installation of a plugin, as PluginService reads it (its endpoint's status and
 * health beside the settings): which secrets are set, never their values.
 */
export default class PluginInstallationTransformer extends BaseTransformer<Installation> {
  toObject() {
    return this.pick(this.resource, [
      'id',
      'label_id',
      'plugin',
      'version',
      'environment',
      'status',
      'events',
      'settings',
      'secrets_set',
      'health',
      'created_at',
      'updated_at',
    ])
  }
}
