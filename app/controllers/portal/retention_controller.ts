import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import RetentionPolicyService from '#services/privacy/retention_policy_service'
import { retentionValidator } from '#validators/privacy'

/** A label's retention periods in the operator's portal: GET/PUT /v1/labels/{id}/retention's. */
@inject()
export default class RetentionController {
  constructor(
    protected labels: LabelService,
    protected retention: RetentionPolicyService
  ) {}

  async edit({ params, inertia, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('PrivacyPolicy').authorize('viewRetention')
    return inertia.render('operator/labels/retention', {
      label: { id: label.id, slug: label.slug, name: label.name },
      policy: await this.retention.show(label),
      may_change: await bouncer.with('PrivacyPolicy').allows('changeRetention'),
    })
  }

  async update({ params, request, response, session, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('PrivacyPolicy').authorize('changeRetention')
    const policy = await request.validateUsing(retentionValidator)
    await this.retention.replace(principal, label, policy)
    session.flash('notice', { severity: 'success', summary: `Retention of ${label.name} saved` })
    return response.redirect().toPath(`/operator/labels/${label.id}/retention`)
  }
}
