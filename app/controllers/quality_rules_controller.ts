import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PublisherService from '#services/catalogue/publisher_service'
import QualityRulesService from '#services/catalogue/quality_rules_service'
import type { QualityRules } from '#services/quality/quality_rules'
import QualityPreviewService from '#services/quality/quality_preview_service'
import { previewQualityRulesValidator, qualityRulesValidator } from '#validators/quality_rules'
import QualityPreviewTransformer from '#transformers/quality_preview_transformer'
import QualityRulesTransformer from '#transformers/quality_rules_transformer'

@inject()
export default class QualityRulesController {
  constructor(
    protected publishers: PublisherService,
    protected qualityRules: QualityRulesService,
    protected previews: QualityPreviewService
  ) {}

  async show({ params, principal, bouncer, serialize }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('QualityRulesPolicy').authorize('view', publisher)
    return serialize(QualityRulesTransformer.transform(this.qualityRules.show(publisher)))
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('QualityRulesPolicy').authorize('update')
    const rules = (await request.validateUsing(qualityRulesValidator)) as QualityRules
    const replaced = await this.qualityRules.replace(principal, publisher, rules)
    return serialize(QualityRulesTransformer.transform(replaced))
  }

  /** What the rules (given, else the current ones) would decide for a sample lead; stores nothing. */
  async preview({ params, request, principal, bouncer, serialize }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    const proposed = request.input('rules') !== undefined
    await bouncer.with('QualityRulesPolicy').authorize('preview', publisher, proposed)
    const { rules, lead } = await request.validateUsing(previewQualityRulesValidator)
    const outcome = await this.previews.preview(
      principal,
      publisher,
      lead,
      rules as QualityRules | undefined
    )
    return serialize(QualityPreviewTransformer.transform(outcome))
  }
}
