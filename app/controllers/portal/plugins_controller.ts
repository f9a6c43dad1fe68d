import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PluginService from '#services/plugins/plugin_service'
import { installPluginValidator, updatePluginValidator } from '#validators/plugin'
import LabelTransformer from '#transformers/label_transformer'
import PluginInstallationTransformer from '#transformers/plugin_installation_transformer'
import PluginManifestTransformer from '#transformers/plugin_manifest_transformer'

/**
 * A label's integration plugins in the operator's portal: the same service,
 * validators and policy as /v1/labels/{id}/plugins. The form is generated
 * from each plugin's settings schema; secrets are write-only.
 */
@inject()
export default class PluginsController {
  constructor(protected plugins: PluginService) {}

  async index({ params, inertia, principal, bouncer }: HttpContext) {
    const label = await this.plugins.label(principal, params.id)
    await bouncer.with('PluginPolicy').authorize('viewList')
    const rows = await this.plugins.list(principal, label.id)
    return inertia.render('operator/labels/plugins', {
      label: LabelTransformer.transform(label).useVariant('toReference'),
      available: PluginManifestTransformer.transform(this.plugins.available().data),
      installations: PluginInstallationTransformer.transform(
        await Promise.all(rows.map((row) => this.plugins.toJson(row)))
      ),
      may_change: await bouncer.with('PluginPolicy').allows('update'),
    })
  }

  async store({ params, request, response, session, principal, bouncer }: HttpContext) {
    const label = await this.plugins.label(principal, params.id)
    await bouncer.with('PluginPolicy').authorize('create')
    const input = await request.validateUsing(installPluginValidator)
    await this.plugins.install(principal, label.id, input)
    session.flash('notice', { severity: 'success', summary: `${input.plugin} enabled` })
    return response.redirect().toPath(`/operator/labels/${label.id}/plugins`)
  }

  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const installation = await this.plugins.find(principal, params.id, params.name)
    await bouncer.with('PluginPolicy').authorize('update')
    const patch = await request.validateUsing(updatePluginValidator)
    await this.plugins.update(principal, installation, patch)
    session.flash('notice', { severity: 'success', summary: `${installation.plugin} saved` })
    return response.redirect().toPath(`/operator/labels/${params.id}/plugins`)
  }

  async test({ params, response, session, principal, bouncer }: HttpContext) {
    const installation = await this.plugins.find(principal, params.id, params.name)
    await bouncer.with('PluginPolicy').authorize('test')
    const result = await this.plugins.testConnection(installation)
    session.flash('notice', {
      severity: result.ok ? 'success' : 'error',
      summary: `${result.ok ? 'Connection works' : 'Connection failed'}: ${result.detail}`,
    })
    return response.redirect().toPath(`/operator/labels/${params.id}/plugins`)
  }
}
