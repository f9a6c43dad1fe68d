import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import LabelService from '#services/catalogue/label_service'
import RetentionPolicyService from '#services/privacy/retention_policy_service'
import { retentionValidator } from '#validators/privacy'

@inject()
export default class RetentionPoliciesController {
  constructor(
    protected labels: LabelService,
    protected retention: RetentionPolicyService
  ) {}

  async show({ params, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('PrivacyPolicy').authorize('viewRetention')
    return this.retention.show(label)
  }

  async update({ params, request, principal, bouncer }: HttpContext) {
    const label = await this.labels.findVisible(principal, params.id)
    await bouncer.with('PrivacyPolicy').authorize('changeRetention')
    const policy = await request.validateUsing(retentionValidator)
    return this.retention.replace(principal, label, policy)
  }
}
