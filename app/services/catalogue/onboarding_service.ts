import { inject } from '@adonisjs/core'
import db from '@adonisjs/lucid/services/db'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import { DateTime } from 'luxon'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import AccessLogService from '#services/access/access_log_service'
import { transaction } from '#services/sql/transaction'

/**
 * Onboarding in the spec's order: the publisher chooses how it delivers,
 * sees and confirms its quality rules, tests in the sandbox, asks to go
 * live, and the operator sets it live; from then on it is monitored.
 */
export const ONBOARDING_STEPS = [
  'choose_delivery_method',
  'confirm_quality_rules',
  'test_in_sandbox',
  'request_go_live',
  'awaiting_approval',
  'monitor',
] as const
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number]

/**
 * Sandbox leads are counted up to this many: the step only asks whether
 * there is one, and a count that stops early stays one short index scan
 * however much a publisher tests.
 */
export const SANDBOX_LEADS_COUNTED = 1000

/**
 * The publisher's sandbox leads (up to SANDBOX_LEADS_COUNTED), as a column
 * a publisher query selects beside its own (`$extras.sandbox_leads`).
 */
export function sandboxLeadsColumn() {
  return db.raw(
    `(SELECT count(*) FROM (SELECT 1 FROM lead_facts f WHERE f.publisher_id = publishers.id
       AND f.environment = 'sandbox' LIMIT ${SANDBOX_LEADS_COUNTED}) s)::int AS sandbox_leads`
  )
}

/** The publisher confirmed the rules that apply now; a change by the operator since voids it. */
export function rulesConfirmed(publisher: Publisher) {
  return (
    publisher.rulesConfirmedAt !== null &&
    publisher.rulesConfirmedAt !== undefined &&
    publisher.rulesConfirmedVersion === publisher.qualityRulesVersion
  )
}

export function sandboxLeadsOf(publisher: Publisher) {
  return Number(publisher.$extras.sandbox_leads ?? 0)
}

/**
 * Where the publisher stands. Once live it stays `monitor`, paused or not:
 * onboarding is behind it. `awaiting_approval` comes before the sandbox
 * test because asking to go live without testing is the publisher's call;
 * the operator sees `sandbox_leads` and decides.
 */
export function onboardingStepOf(publisher: Publisher): OnboardingStep {
  if (publisher.status === 'live' || publisher.wentLiveAt) return 'monitor'
  if (publisher.deliveryMethods.length === 0) return 'choose_delivery_method'
  if (!rulesConfirmed(publisher)) return 'confirm_quality_rules'
  if (publisher.goLiveRequestedAt) return 'awaiting_approval'
  if (sandboxLeadsOf(publisher) === 0) return 'test_in_sandbox'
  return 'request_go_live'
}

const iso = (moment: DateTime | null | undefined) => moment?.toUTC().toISO() ?? null

/** The publisher's `onboarding` object, for the API and the portal alike. */
export function onboardingOf(publisher: Publisher) {
  const confirmed = rulesConfirmed(publisher)
  return {
    step: onboardingStepOf(publisher),
    rules_version: publisher.qualityRulesVersion ?? 0,
    rules_confirmed_at: confirmed ? iso(publisher.rulesConfirmedAt) : null,
    sandbox_leads: sandboxLeadsOf(publisher),
    go_live_requested_at: iso(publisher.goLiveRequestedAt),
    went_live_at: iso(publisher.wentLiveAt),
  }
}

/**
 * Locks the publisher's row for the caller's transaction and reloads the
 * model from it (its label and `$extras` stay), so a confirmation, a rules
 * change and a go-live never decide on what another of them just changed.
 */
export async function lockPublisher(trx: TransactionClientContract, publisher: Publisher) {
  const locked = await Publisher.query({ client: trx })
    .where('id', publisher.id)
    .forUpdate()
    .firstOrFail()
  publisher.fill(locked.$attributes)
  publisher.$hydrateOriginals()
  publisher.useTransaction(trx)
  return publisher
}

export function rulesNotConfirmed(publisher: Publisher) {
  return ApiProblem.conflict(
    'rules_not_confirmed',
    `Publisher "${publisher.slug}" has not confirmed its current quality rules (version ${publisher.qualityRulesVersion}): ` +
      'POST /v1/publishers/{id}/quality-rules/confirm first.'
  )
}

/**
 * The publisher's own steps through onboarding: confirming its quality
 * rules and asking to go live. The operator may take either on the
 * publisher's behalf; setting it live is the operator's alone
 * (PublisherService.update, gated on the same confirmation).
 */
@inject()
export default class OnboardingService {
  constructor(protected accessLog: AccessLogService) {}

  /**
   * Records that the publisher saw and accepts the rules as they are now.
   * `rulesVersion`, when given, is the version the caller read: rules
   * changed since answer 409 `rules_changed` rather than confirming rules
   * nobody saw. Confirming the confirmed version again changes nothing.
   */
  async confirmRules(principal: Principal, publisher: Publisher, rulesVersion?: number) {
    await transaction(async (trx) => {
      await lockPublisher(trx, publisher)
      if (rulesVersion !== undefined && rulesVersion !== publisher.qualityRulesVersion) {
        throw ApiProblem.conflict(
          'rules_changed',
          `The quality rules changed since you read them: they are at version ${publisher.qualityRulesVersion}, ` +
            `not ${rulesVersion}. Read them again and confirm what you read.`
        )
      }
      if (rulesConfirmed(publisher)) return
      publisher.merge({
        rulesConfirmedVersion: publisher.qualityRulesVersion,
        rulesConfirmedAt: DateTime.utc(),
      })
      await publisher.save()
      await this.accessLog.record(
        principal.actor,
        'quality_rules.confirmed',
        { type: 'publisher', id: publisher.id, publisherId: publisher.id },
        { details: { rules_version: publisher.qualityRulesVersion }, trx }
      )
    })
    return publisher
  }

  /**
   * The publisher asks the operator to set it live. It must deliver some
   * way and have confirmed its current rules; a live publisher has nothing
   * to ask, and a request already made stands (both change nothing).
   */
  async requestGoLive(principal: Principal, publisher: Publisher) {
    await transaction(async (trx) => {
      await lockPublisher(trx, publisher)
      if (publisher.status === 'live') return
      if (publisher.deliveryMethods.length === 0) {
        throw ApiProblem.conflict(
          'delivery_method_missing',
          'Choose at least one delivery method (PATCH /v1/publishers/{id} `delivery_methods`) before asking to go live.'
        )
      }
      if (!rulesConfirmed(publisher)) throw rulesNotConfirmed(publisher)
      if (publisher.goLiveRequestedAt) return
      publisher.goLiveRequestedAt = DateTime.utc()
      await publisher.save()
      await this.accessLog.record(
        principal.actor,
        'publisher.go_live_requested',
        { type: 'publisher', id: publisher.id, publisherId: publisher.id },
        {
          details: {
            rules_version: publisher.qualityRulesVersion,
            sandbox_leads: sandboxLeadsOf(publisher),
          },
          trx,
        }
      )
    })
    return publisher
  }
}
