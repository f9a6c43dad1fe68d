import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import PublisherService from '#services/catalogue/publisher_service'
import QualityRulesService from '#services/catalogue/quality_rules_service'
import QualityPreviewService from '#services/quality/quality_preview_service'
import {
  AUDIENCE_OPERATORS,
  DUPLICATE_KEYS,
  LEAD_FIELD_PATHS,
  MAX_CRITERIA,
  RULE_ACTIONS,
  type QualityRules,
} from '#services/quality/quality_rules'
import { previewQualityRulesValidator, qualityRulesValidator } from '#validators/quality_rules'
import PublisherTransformer from '#transformers/publisher_transformer'
import QualityPreviewTransformer from '#transformers/quality_preview_transformer'
import QualityRulesTransformer from '#transformers/quality_rules_transformer'
import type { InferData } from '@adonisjs/core/types/transformers'

/** A sample lead's outcome, as the preview flashed it. */
type Preview = InferData<QualityPreviewTransformer>

/**
 * The operator's editor of a publisher's quality rules, and "try a sample
 * lead": the validators and services of /v1/publishers/{id}/quality-rules.
 */
@inject()
export default class QualityRulesController {
  constructor(
    protected publishers: PublisherService,
    protected qualityRules: QualityRulesService,
    protected previews: QualityPreviewService
  ) {}

  async edit({ params, inertia, session, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('QualityRulesPolicy').authorize('view', publisher)
    return inertia.render('operator/publishers/quality_rules', {
      publisher: PublisherTransformer.transform(publisher),
      rules: QualityRulesTransformer.transform(this.qualityRules.show(publisher)),
      vocabulary: {
        fields: [...LEAD_FIELD_PATHS],
        operators: [...AUDIENCE_OPERATORS],
        actions: [...RULE_ACTIONS],
        duplicate_keys: [...DUPLICATE_KEYS],
        max_criteria: MAX_CRITERIA,
      },
      // The outcome of the sample lead just tried (the preview redirects back here).
      preview: (session.flashMessages.get('preview') as Preview | undefined) ?? null,
    })
  }

  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const publisher = await this.publishers.findVisible(principal, params.id)
    await bouncer.with('QualityRulesPolicy').authorize('update')
    const rules = (await request.validateUsing(qualityRulesValidator)) as QualityRules
    const version = publisher.qualityRulesVersion
    await this.qualityRules.replace(principal, publisher, rules)
    const changed = publisher.qualityRulesVersion !== version
    // A change voids the publisher's confirmation, which going live for the first time needs.
    const summary = !changed
      ? 'Quality rules saved; nothing changed'
      : publisher.wentLiveAt
        ? `Quality rules saved as version ${publisher.qualityRulesVersion}`
        : `Quality rules saved as version ${publisher.qualityRulesVersion}: ${publisher.name} must confirm them before going live`
    session.flash('notice', { severity: 'success', summary })
    return response.redirect().toRoute('operator.quality_rules.edit', { id: publisher.id })
  }

  /** Runs the rules being edited (unsaved) on a sample lead; nothing is stored. */
  async preview({
    params,
    request,
    response,
    session,
    principal,
    bouncer,
    serialize,
  }: HttpContext) {
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
    session.flash('preview', await serialize(QualityPreviewTransformer.transform(outcome)))
    return response.redirect().toRoute('operator.quality_rules.edit', { id: publisher.id })
  }
}
