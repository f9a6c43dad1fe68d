import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PluginService from '#services/plugins/plugin_service'
import PluginInstallationTransformer from '#transformers/plugin_installation_transformer'
import PluginManifestTransformer from '#transformers/plugin_manifest_transformer'
import WebhookDeliveryTransformer from '#transformers/webhook_delivery_transformer'
import ApiProblem from '#exceptions/api_problem'
import { NO_CODE_PLATFORMS, noCodeTemplate } from '#services/plugins/no_code_templates'
import {
  installPluginValidator,
  pluginDeliveriesValidator,
  pluginNameValidator,
  updatePluginValidator,
} from '#validators/plugin'

@inject()
export default class PluginsController {
  constructor(protected plugins: PluginService) {}

  /** The adapters this installation of Leadgate loaded, and those it skipped. */
  async available({ bouncer, serialize }: HttpContext) {
    await bouncer.with('PluginPolicy').authorize('viewList')
    const { data, broken } = this.plugins.available()
    return { data: await serialize(PluginManifestTransformer.transform(data)), broken }
  }

  async index({ params, principal, bouncer, serialize }: HttpContext) {
    await this.plugins.label(principal, params.id)
    await bouncer.with('PluginPolicy').authorize('viewList')
    const rows = await this.plugins.list(principal, params.id)
    const installations = await Promise.all(rows.map((row) => this.plugins.toJson(row)))
    return { data: await serialize(PluginInstallationTransformer.transform(installations)) }
  }

  async store({ params, request, response, principal, bouncer, serialize }: HttpContext) {
    await this.plugins.label(principal, params.id)
    await bouncer.with('PluginPolicy').authorize('create')
    const input = await request.validateUsing(installPluginValidator)
    const installation = await this.plugins.install(principal, params.id, input)
    const json = await this.plugins.toJson(installation)
    return response.created(await serialize(PluginInstallationTransformer.transform(json)))
  }

  async show(ctx: HttpContext) {
    const installation = await this.installation(ctx)
    await ctx.bouncer.with('PluginPolicy').authorize('view')
    const json = await this.plugins.toJson(installation)
    return ctx.serialize(PluginInstallationTransformer.transform(json))
  }

  async update(ctx: HttpContext) {
    const installation = await this.installation(ctx)
    await ctx.bouncer.with('PluginPolicy').authorize('update')
    const patch = await ctx.request.validateUsing(updatePluginValidator)
    const updated = await this.plugins.update(ctx.principal, installation, patch)
    const json = await this.plugins.toJson(updated)
    return ctx.serialize(PluginInstallationTransformer.transform(json))
  }

  async destroy(ctx: HttpContext) {
    const installation = await this.installation(ctx)
    await ctx.bouncer.with('PluginPolicy').authorize('delete')
    await this.plugins.remove(ctx.principal, installation)
    return ctx.response.noContent()
  }

  async deliveries(ctx: HttpContext) {
    const installation = await this.installation(ctx)
    await ctx.bouncer.with('PluginPolicy').authorize('view')
    const filters = await pluginDeliveriesValidator.validate(ctx.request.qs())
    const page = await this.plugins.deliveryLog(ctx.principal, installation, filters)
    return ctx.serializePage(WebhookDeliveryTransformer.transform(page.data), page.nextCursor)
  }

  async test(ctx: HttpContext) {
    const installation = await this.installation(ctx)
    await ctx.bouncer.with('PluginPolicy').authorize('test')
    return this.plugins.testConnection(installation)
  }

  /** The CRM records the label's plugins made for a lead (their ids, when synced). */
  async leadSyncs({ params, principal, bouncer }: HttpContext) {
    const syncs = await this.plugins.syncsOf(principal, params.id)
    await bouncer.with('PluginPolicy').authorize('view')
    return { data: syncs }
  }

  /** A ready-to-import file for a no-code platform, named by the route. */
  async template({ params, route, response, principal, bouncer }: HttpContext) {
    const label = await this.plugins.label(principal, params.id)
    await bouncer.with('PluginPolicy').authorize('view')
    const platform = NO_CODE_PLATFORMS.find((name) => route?.pattern.endsWith(`/templates/${name}`))
    if (!platform) throw ApiProblem.notFound('template')
    const { filename, content } = noCodeTemplate(platform, label)
    response.header('Content-Disposition', `attachment; filename="${filename}"`)
    return content
  }

  private async installation({ params, principal }: HttpContext) {
    const valid = await pluginNameValidator.validate(params).catch(() => null)
    if (!valid) throw ApiProblem.notFound('plugin installation')
    return this.plugins.find(principal, params.id, valid.name)
  }
}
