import { inject } from '@adonisjs/core'
import { uuidv7 } from 'uuidv7'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'
import intakeConfig from '#config/intake'
import Publisher from '#models/publisher'
import type Principal from '#auth/principal'
import ApiProblem from '#exceptions/api_problem'
import TenancyService from '#services/platform/tenancy_service'
import OutboxService from '#services/webhooks/outbox_service'
import AuditChainService from '#services/audit/audit_chain_service'
import ConsentEvidenceService from '#services/audit/consent_evidence_service'
import IdempotencyService, { type StoredAnswer } from '#services/intake/idempotency_service'
import { evaluateLead, publisherContext } from '#services/quality/evaluate_lead'
import { normaliseLead } from '#services/quality/normalise'
import type { Evaluation, LeadInput, Normalised } from '#services/quality/types'
import { type DuplicateScreen, enterAndScreen } from '#services/quality/duplicate_finder'
import { asRecordset, insertTogether } from '#services/sql/insert_together'
import {
  type DecidedLead,
  addLeadRows,
  emptyGroupRows,
  leadInserts,
  validConsentOf,
} from '#services/intake/intake_rows'
import { GroupCommit } from '#services/sql/group_commit'
import type { SubscribedEndpoint } from '#services/webhooks/endpoint_row'
import { checkPing, claimPing } from '#services/selling/ping_claims'
import { enqueueRouting } from '#services/routing/routing_queue'
import { announceLeads } from '#services/reports/live_feed'
import { publisherBySlug } from '#services/catalogue/publisher_directory'
import { type Channel, assertDeliveryMethod } from '#services/intake/delivery_methods'

export type Submission = {
  channel: Channel
  idempotency?: { key: string; digest: string }
  /** How consent was given, for the evidence: checkbox on a form, an API call, an upload row. */
  consentMethod: 'checkbox' | 'form_submit' | 'api' | 'upload'
}

export type LeadAnswer = {
  id: string
  publisher: string
  status: Evaluation['outcome']
  environment: Principal['environment']
  quality_check: Evaluation['quality_check']
  reasons: Evaluation['reasons']
  /** The sale as the publisher hears it (docs/selling.md): never to whom or at what price. */
  sale: { status: 'pending' | 'sold' | 'unsold'; payout_cents?: number }
  created_at: string
}
export type Answer = StoredAnswer & { body: LeadAnswer; replayed?: boolean }

type Pending = {
  principal: Principal
  publisher: Publisher
  input: LeadInput
  submission: Submission
  started: number
}
type EvaluatedLead = Pending & DecidedLead
/** The caller's own writes in a batch's transaction, given the batch's answers (recordBatch). */
export type Alongside = (trx: TransactionClientContract, answers: Answer[]) => Promise<void>
type BatchOptions = { alongside: Alongside; route: boolean }
/**
 * The most leads one write statement carries (an upload's batch), so that
 * its JSON parameters, a few kB a lead, stay a few MB.
 */
const STORE_CHUNK = 500
/** Leads of one publisher and environment that arrive together are written together. */
const groups = new GroupCommit<Pending, Answer>(intakeConfig.groupCommit)

/**
 * One pipeline for every way a lead arrives (API, /v1/requests, hosted
 * forms, CSV rows): shape-validated input → the publisher's quality rules →
 * outcome, and everything the lead leaves behind in one transaction: the
 * lead, its consent evidence, its audit entries, its facts row and its events.
 */
@inject()
export default class IntakeService {
  constructor(
    protected tenancy: TenancyService,
    protected outbox: OutboxService,
    protected audit: AuditChainService,
    protected consentEvidence: ConsentEvidenceService,
    protected idempotency: IdempotencyService
  ) {}

  async submit(
    principal: Principal,
    input: LeadInput & { ping_id?: string },
    submission: Submission
  ): Promise<Answer> {
    const publisher = await this.publisherFor(principal, input.publisher)
    assertDeliveryMethod(publisher, submission.channel)
    const pending: Pending = { principal, publisher, input, submission, started: performance.now() }
    // A lead posted on a ping's offer is checked against the ping before anything is stored, and
    // goes alone: its transaction also claims the ping, once.
    if (input.ping_id) {
      const ping = await checkPing(input.ping_id, publisher, principal.environment, input)
      const [answer] = await this.record([pending], {
        route: true,
        alongside: async (trx, [recorded]) => {
          if (recorded.body.status !== 'rejected') {
            await claimPing(trx, ping, recorded.body.id, new Date())
          }
        },
      })
      return answer
    }
    // An idempotent request goes alone: a concurrent twin must wait on its commit, not share its transaction.
    if (submission.idempotency && principal.credentialId) {
      const [answer] = await this.record([pending])
      return answer
    }
    return groups.add(`${publisher.id}:${principal.environment}`, pending, (items) =>
      this.record(items)
    )
  }

  /**
   * Leads of one publisher and environment, in one transaction; answers in the same order.
   * `batch` is recordBatch's: the caller's own writes and whether to route.
   */
  private async record(items: Pending[], batch?: BatchOptions) {
    const { publisher, principal } = items[0]
    const now = new Date()
    const normalised = items.map((item) => normaliseLead(item.input, publisher.country))
    const answers = await this.tenancy.runEntered(
      publisher,
      (trx, schemaName) =>
        enterAndScreen(
          trx,
          schemaName,
          publisher,
          publisher.qualityRules ?? {},
          normalised,
          principal.environment,
          now
        ),
      async (trx, screen) => {
        const recorded = await this.recordWithin(trx, items, { now, normalised, screen })
        await batch?.alongside(trx, recorded)
        return recorded
      }
    )
    // Open dashboards hear of new leads after the commit; a broadcast never fails or holds intake.
    if (answers.some((answer) => !answer.replayed))
      announceLeads(publisher.id, principal.environment)
    // Routing starts after the commit, with the leads other requests accepted meanwhile; the answer does
    // not wait for Redis. If Redis is away (or the process dies first), the routing sweeper finds the
    // leads in Postgres. Sandbox leads too: they meet the sandbox's rules (docs/sandbox.md).
    if (batch && !batch.route) return answers
    const routable = answers
      .filter((answer) => !answer.replayed && answer.body.status === 'accepted')
      .map((answer) => answer.body.id)
    void enqueueRouting(routable)
    return answers
  }

  private async recordWithin(
    trx: TransactionClientContract,
    items: Pending[],
    screened: { now: Date; normalised: Normalised[]; screen: DuplicateScreen }
  ) {
    const { publisher } = items[0]
    const { now, screen } = screened
    const answers = new Map<Pending, Answer>()
    for (const item of items) {
      const replay = await this.claimIdempotency(trx, item)
      if (replay) answers.set(item, { ...(replay as Answer), replayed: true })
    }
    const fresh = items.filter((item) => !answers.has(item))
    const normalised = screened.normalised.filter((_, index) => !answers.has(items[index]))

    const context = publisherContext(publisher, publisher.qualityRules ?? {}, now)
    const leads = fresh.map((item, index) => {
      const duplicate = screen.isDuplicate(normalised[index])
      const evaluation = evaluateLead(item.input, {
        ...context,
        duplicate,
        normalised: normalised[index],
        channel: item.submission.channel,
      })
      if (evaluation.outcome !== 'rejected') screen.remember(normalised[index])
      return { ...item, leadId: uuidv7(), evaluation, now }
    })
    if (leads.length > 0) await this.store(trx, leads)

    for (const [index, lead] of leads.entries()) {
      const answer: Answer = {
        status: lead.evaluation.outcome === 'rejected' ? 422 : 201,
        body: {
          id: lead.leadId,
          publisher: publisher.slug,
          status: lead.evaluation.outcome,
          environment: lead.principal.environment,
          quality_check: lead.evaluation.quality_check,
          reasons: lead.evaluation.reasons,
          // A rejected lead is never offered; an accepted one is sold after the commit, a flagged one
          // once its review accepts it.
          sale: { status: lead.evaluation.outcome === 'rejected' ? 'unsold' : 'pending' },
          created_at: now.toISOString(),
        },
      }
      answers.set(fresh[index], answer)
      const idempotency = lead.submission.idempotency
      if (idempotency && lead.principal.credentialId) {
        await this.idempotency.remember(trx, lead.principal.credentialId, idempotency.key, answer)
      }
    }
    return items.map((item) => answers.get(item)!)
  }

  private async claimIdempotency(trx: TransactionClientContract, item: Pending) {
    const idempotency = item.submission.idempotency
    if (!idempotency || !item.principal.credentialId) return undefined
    return this.idempotency.claim(
      trx,
      item.principal.credentialId,
      idempotency.key,
      idempotency.digest
    )
  }

  /**
   * The lead's `publisher` must be the key's own publisher; the operator may
   * submit for any. Whether the principal may deliver at all is LeadPolicy's call.
   */
  async publisherFor(principal: Principal, slug: string) {
    const publisher = await publisherBySlug(slug)
    if (principal.kind === 'publisher' && publisher?.id !== principal.publisherId) {
      throw ApiProblem.forbidden(
        'publisher_mismatch',
        `This key delivers for its own publisher only; "publisher" must be your publisher's slug, not "${slug}".`
      )
    }
    if (!publisher) {
      throw ApiProblem.unprocessable([
        { field: 'publisher', code: 'exists', message: `No publisher with slug "${slug}".` },
      ])
    }
    if (principal.environment === 'live' && publisher.status !== 'live') {
      throw ApiProblem.forbidden(
        'publisher_not_live',
        `Publisher "${slug}" is ${publisher.status}: deliver with a sandbox key until the operator sets it live.`
      )
    }
    return publisher
  }

  /**
   * Everything the leads leave behind in one statement (one round trip), one
   * INSERT per table for the whole group, which also answers the endpoints
   * their events go to. Each table's rows travel as one JSON parameter
   * (`asRecordset`), so the text is the same for a group of one lead or of
   * `STORE_CHUNK`: it runs as a prepared statement of the publisher's schema,
   * parsed and planned once per connection instead of for every group
   * (docs/benchmarks/intake.md, "the intake write prepared"). An upload's
   * large batch takes several statements.
   */
  private async store(trx: TransactionClientContract, leads: EvaluatedLead[]) {
    for (let start = 0; start < leads.length; start += STORE_CHUNK) {
      await this.storeStatement(trx, leads.slice(start, start + STORE_CHUNK))
    }
  }

  private async storeStatement(trx: TransactionClientContract, leads: EvaluatedLead[]) {
    const rows = emptyGroupRows()
    // One after another: a wording not seen before is stored once, by the first lead that needs it.
    for (const lead of leads) {
      const consent = validConsentOf(lead)
      const evidence = consent ? await this.consentEvidence.prepare(trx, consent) : null
      addLeadRows(rows, lead, evidence)
    }
    const now = leads[0].now
    const events = rows.events.length ? this.outbox.stage(rows.events, now) : null
    const written = await insertTogether(
      trx,
      [
        ...[
          ...leadInserts(rows),
          ...this.audit.startTrailsInserts(rows.trails),
          ...(rows.evidence.length ? [this.consentEvidence.insertOf(rows.evidence)] : []),
          ...(events ? [events.insert] : []),
        ].map(asRecordset),
        ...(events ? [this.outbox.endpointsFor(events.published)] : []),
      ],
      { preparedKey: leads[0].publisher.schemaName }
    )
    if (events) await this.outbox.deliver(trx, events, written as SubscribedEndpoint[])
  }

  /**
   * Leads prepared elsewhere (the rows of an upload), all for one publisher
   * and the principal's environment, recorded as one group in one
   * transaction, with `alongside` writing the caller's own rows in it (an
   * upload row's `lead_id`): a lead and the caller's record of it commit
   * together or not at all. No group commit with other arrivals and no
   * idempotency keys: the caller batches, and its own rows say what is done.
   * A batch past `STORE_CHUNK` leads is written in several statements of
   * the one transaction. Accepted live leads are queued for routing after
   * the commit, as for any lead, unless `route` is false: then the caller
   * queues them when it sees fit, and until it does, the routing sweeper
   * would find them in Postgres.
   */
  async recordBatch(
    principal: Principal,
    publisher: Publisher,
    inputs: LeadInput[],
    submission: Submission,
    alongside: Alongside,
    options: { route?: boolean } = {}
  ): Promise<Answer[]> {
    if (inputs.length === 0) return []
    const started = performance.now()
    return this.record(
      inputs.map((input) => ({ principal, publisher, input, submission, started })),
      { alongside, route: options.route ?? true }
    )
  }
}
