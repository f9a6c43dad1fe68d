import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { appUrl } from '#config/app'
import intakeConfig from '#config/intake'
import Principal from '#auth/principal'
import type { DeliveryMethod } from '#models/publisher'
import PublisherService from '#services/catalogue/publisher_service'
import OnboardingService from '#services/catalogue/onboarding_service'
import ApiKeyService from '#services/access/api_key_service'
import IntakeService from '#services/intake/intake_service'
import { sampleLead } from '#services/intake/sample_lead'
import { leadCounts } from '#services/leads/lead_counts'
import { rulesInWords } from '#services/quality/rules_in_words'
import PublisherTransformer from '#transformers/publisher_transformer'
import { confirmRulesValidator, updatePublisherValidator } from '#validators/publisher'
import { createApiKeyValidator } from '#validators/api_key'
import { createLeadValidator } from '#validators/lead'

/** The delivery method the user just chose; `sandbox_key` when choosing the API made one. */
type ChosenMethod = { method: DeliveryMethod; sandbox_key: boolean }

// A user without a publisher finds nothing (404) rather than a malformed uuid (500).
const NO_ID = '00000000-0000-0000-0000-000000000000'

/**
 * The publisher's home: its onboarding wizard (delivery method, quality
 * rules, sandbox test, go-live request) until the operator sets it live,
 * then its monitor. Every step calls the service the API calls.
 */
@inject()
export default class PublisherHomeController {
  constructor(
    protected publishers: PublisherService,
    protected onboarding: OnboardingService,
    protected apiKeys: ApiKeyService,
    protected intake: IntakeService
  ) {}

  async show({ inertia, principal, bouncer, session, serialize }: HttpContext) {
    const publisher = await this.own(principal)
    await bouncer.with('PublisherPolicy').authorize('viewHome', publisher)
    const json = await serialize(
      PublisherTransformer.transform(publisher).useVariant('withLabelName')
    )
    // Today's figures are reporting: a deliver-only user sees the home without them.
    const monitor = json.onboarding.step === 'monitor' && principal.can('read')
    return inertia.render('publisher/home', {
      publisher: json,
      rules: rulesInWords(publisher.qualityRules ?? {}, intakeConfig),
      sample: sampleLead(publisher),
      api_url: `${appUrl}/v1/leads`,
      sandbox_keys: await this.sandboxKeyCount(principal),
      test_lead: session.flashMessages.get('test_lead') ?? null,
      // The method just chosen, and what came with it: a starter form, an upload page, a key.
      chosen: (session.flashMessages.get('chosen') as ChosenMethod | undefined) ?? null,
      // Live figures: sandbox tests are no deliveries.
      counts: monitor ? await leadCounts({ publisherId: publisher.id, environment: 'live' }) : null,
    })
  }

  /**
   * Step 1: how it delivers. Choosing the hosted form sets up a starter form
   * (PublisherService does); choosing the API without a sandbox key makes one,
   * shown once, to test with in step 3.
   */
  async chooseDeliveryMethod({ request, response, principal, bouncer, session }: HttpContext) {
    const publisher = await this.own(principal)
    const input = await request.validateUsing(updatePublisherValidator)
    await bouncer
      .with('PublisherPolicy')
      .authorize('update', publisher, input.delivery_methods ? ['delivery_methods'] : [])
    const before = [...publisher.deliveryMethods]
    await this.publishers.update(principal, publisher, {
      delivery_methods: input.delivery_methods,
    })
    const [method] = (input.delivery_methods ?? []).filter((chosen) => !before.includes(chosen))
    const keyMade =
      method === 'api' &&
      (await this.sandboxKeyCount(principal)) === 0 &&
      (await bouncer.with('CredentialPolicy').allows('create'))
    if (keyMade) await this.makeSandboxKey(principal, session)
    if (method) session.flash('chosen', { method, sandbox_key: keyMade } satisfies ChosenMethod)
    session.flash('notice', { severity: 'success', summary: 'Delivery method saved' })
    return response.redirect().toRoute('publisher.home')
  }

  /** Step 2: the rules the publisher read (their version) are the rules it accepts. */
  async confirmRules({ request, response, principal, bouncer, session }: HttpContext) {
    const publisher = await this.own(principal)
    await bouncer.with('PublisherPolicy').authorize('confirmRules', publisher)
    const { rules_version: version } = await request.validateUsing(confirmRulesValidator)
    await this.onboarding.confirmRules(principal, publisher, version)
    session.flash('notice', { severity: 'success', summary: 'Quality rules confirmed' })
    return response.redirect().toRoute('publisher.home')
  }

  /** Step 3: a sandbox key of its own, with what the user holds of read and submit; shown once. */
  async createSandboxKey({ response, principal, bouncer, session }: HttpContext) {
    await bouncer.with('CredentialPolicy').authorize('create')
    await this.makeSandboxKey(principal, session)
    session.flash('notice', { severity: 'success', summary: 'Sandbox key created' })
    return response.redirect().toRoute('publisher.home')
  }

  /**
   * Step 3: the sample lead, sent in the sandbox through the intake every
   * lead takes, as the user acting in the sandbox (what a sandbox key of its
   * own would be); the answer is shown as the API would give it.
   */
  async sendTestLead({ response, principal, bouncer, session }: HttpContext) {
    await bouncer.with('LeadPolicy').authorize('create')
    const publisher = await this.own(principal)
    const input = await createLeadValidator.validate(sampleLead(publisher))
    const answer = await this.intake.submit(inSandbox(principal), input, {
      channel: 'api',
      consentMethod: 'api',
    })
    session.flash('test_lead', answer.body)
    return response.redirect().toRoute('publisher.home')
  }

  /** Step 4: the operator is asked to set the publisher live. */
  async requestGoLive({ response, principal, bouncer, session }: HttpContext) {
    const publisher = await this.own(principal)
    await bouncer.with('PublisherPolicy').authorize('requestGoLive', publisher)
    await this.onboarding.requestGoLive(principal, publisher)
    session.flash('notice', { severity: 'success', summary: 'Go-live requested' })
    return response.redirect().toRoute('publisher.home')
  }

  /** A sandbox key with what the user holds of read and submit; its secret is flashed, shown once. */
  protected async makeSandboxKey(principal: Principal, session: HttpContext['session']) {
    const input = await createApiKeyValidator.validate({
      name: `Sandbox key ${new Date().toISOString().slice(0, 10)}`,
      permissions: (['read', 'submit'] as const).filter((permission) => principal.can(permission)),
      environment: 'sandbox',
    })
    const { secret } = await this.apiKeys.create(principal, input)
    session.flash('secret', { label: 'Sandbox API key', value: secret })
  }

  protected async sandboxKeyCount(principal: Principal) {
    const [keys] = await this.apiKeys
      .visibleTo(principal)
      .where('environment', 'sandbox')
      .whereNull('revoked_at')
      .count('* as total')
    return Number(keys.$extras.total)
  }

  protected own(principal: Principal) {
    return this.publishers.findVisible(principal, principal.publisherId ?? NO_ID)
  }
}

/** The same user, same rights, in the sandbox: its leads stay out of live figures and routing. */
function inSandbox(principal: Principal) {
  return new Principal(
    principal.kind,
    principal.permissions,
    'sandbox',
    principal.actor,
    principal.publisherId,
    principal.buyerId,
    principal.credentialId
  )
}
