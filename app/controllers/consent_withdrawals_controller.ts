import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import ConsentWithdrawalService from '#services/privacy/consent_withdrawal_service'
import { consentWithdrawalValidator } from '#validators/privacy'

@inject()
export default class ConsentWithdrawalsController {
  constructor(protected withdrawals: ConsentWithdrawalService) {}

  async store({ params, request, principal, bouncer }: HttpContext) {
    const lead = await this.withdrawals.findVisible(principal, params.id)
    await bouncer.with('PrivacyPolicy').authorize('withdrawConsent')
    await request.validateUsing(consentWithdrawalValidator)
    return this.withdrawals.withdraw(principal, lead)
  }
}
