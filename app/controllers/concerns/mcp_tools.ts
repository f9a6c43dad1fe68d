import { z } from 'zod'
import { errors as vineErrors } from '@vinejs/vine'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import Principal from '#auth/principal'
import logger from '@adonisjs/core/services/logger'
import ApiProblem from '#exceptions/api_problem'
import type IntakeService from '#services/intake/intake_service'
import type LeadService from '#services/leads/lead_service'
import type ReportService from '#services/reports/report_service'
import ReportPolicy from '#policies/report_policy'
import { kpiReportValidator } from '#validators/report'
import { NAMED_PERIODS } from '#services/reports/report_period'
import { REPORT_DIMENSIONS } from '#services/reports/vocabulary'
import LeadPolicy from '#policies/lead_policy'
import { createLeadValidator } from '#validators/lead'
import { audienceOf } from '#services/leads/lead_service'
import type DisputeService from '#services/money/dispute_service'
import type DisputeReader from '#services/money/dispute_reader'
import { DISPUTE_REASONS } from '#services/money/dispute_rules'
import DisputePolicy from '#policies/dispute_policy'
import DisputeDetailTransformer from '#transformers/dispute_detail_transformer'
import type { HttpContext } from '@adonisjs/core/http'
import { openDisputeValidator, respondToDisputeValidator } from '#validators/dispute'

/** The key's own principal, acting as `agent:<key id>` in the audit trail and the access log. */
export function agentOf(principal: Principal) {
  return new Principal(
    principal.kind,
    principal.permissions,
    principal.environment,
    `agent:${principal.credentialId ?? 'unknown'}`,
    principal.publisherId,
    principal.buyerId,
    principal.credentialId,
    principal.scope,
    principal.labelId
  )
}

type Services = {
  intake: IntakeService
  leads: LeadService
  reports: ReportService
  disputes: DisputeService
  disputeReader: DisputeReader
  /** The request's serializer, for the answers shaped by transformers. */
  serialize: HttpContext['serialize']
}
type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean }

const answer = (value: unknown): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
})

/**
 * The public API's refusals, as a tool's error result the model can read:
 * the same problem codes and field errors as the HTTP API.
 */
async function guarded(work: () => Promise<unknown>): Promise<ToolResult> {
  try {
    return answer(await work())
  } catch (error) {
    if (error instanceof ApiProblem) {
      const problem = {
        status: error.status,
        code: error.code,
        title: error.title,
        detail: error.detail,
        ...error.extensions,
      }
      return { ...answer(problem), isError: true }
    }
    if (error instanceof vineErrors.E_VALIDATION_ERROR) {
      return {
        ...answer({ status: 422, code: 'validation_failed', errors: error.messages }),
        isError: true,
      }
    }
    // Anything else is ours, and its message (a statement, a stack) is not the caller's to read:
    // the SDK would put it in the tool's answer as it is.
    logger.error({ err: error }, 'mcp: a tool failed')
    return {
      ...answer({
        status: 500,
        code: 'internal_error',
        title: 'Internal server error',
        detail: 'Something went wrong on our side; nothing was changed. Try again later.',
      }),
      isError: true,
    }
  }
}

function allowed(decision: true | unknown, action: string) {
  if (decision === true) return
  throw ApiProblem.forbidden('tool_not_allowed', `This key may not ${action}.`)
}

/**
 * Leadgate's tools for AI agents, over the same services, policies and
 * validators as the HTTP API, under the calling key's scope and owner.
 */
export function buildMcpServer(principal: Principal, services: Services) {
  const server = new McpServer({ name: 'leadgate', version: '1.0.0' })
  const policy = new LeadPolicy()

  server.registerTool(
    'submit_lead',
    {
      title: 'Submit a lead',
      description:
        'Delivers one lead, exactly as POST /v1/leads: `publisher` (slug), `contact` {name, email, phone, postal_code, country}, ' +
        '`provenance` {source, campaign, landing_page}, `consent` {given: true, text, timestamp (ISO 8601), ip}, optional `attributes`. ' +
        'Answers the lead id, its status (accepted, flagged or rejected) and the reasons of a rejection. Needs a publisher or operator key with submit.',
      inputSchema: {
        lead: z.record(z.string(), z.unknown()).describe('The lead, as POST /v1/leads takes it.'),
      },
    },
    ({ lead }) =>
      guarded(async () => {
        allowed(policy.create(principal), 'submit leads')
        const input = await createLeadValidator.validate(lead)
        const result = await services.intake.submit(principal, input, {
          channel: 'api',
          consentMethod: 'api',
        })
        return { http_status: result.status, ...result.body }
      })
  )

  server.registerTool(
    'get_lead',
    {
      title: 'Look up a lead',
      description:
        'One lead by id, as GET /v1/leads/{id} shows it to this key: status, quality check, reasons, and what the key may see of routing. Unknown or not visible: not_found.',
      inputSchema: { lead_id: z.string().uuid().describe('The lead id Leadgate returned.') },
    },
    ({ lead_id: leadId }) =>
      guarded(async () => {
        allowed(policy.view(principal), 'read leads')
        return services.leads.findVisible(principal, leadId)
      })
  )

  server.registerTool(
    'list_rejections',
    {
      title: 'List rejected leads with their reasons',
      description:
        "The newest rejected leads this key may see, each with its reasons (code, field, message): what to fix in the next submissions. `limit` 1-100 (default 20); pass `cursor` from the answer's next_cursor for more.",
      inputSchema: {
        limit: z.number().int().min(1).max(100).optional(),
        cursor: z.string().max(200).optional(),
      },
    },
    ({ limit, cursor }) =>
      guarded(async () => {
        allowed(policy.view(principal), 'read leads')
        const page = await services.leads.list(principal, {
          status: 'rejected',
          limit: limit ?? 20,
          cursor,
        } as Parameters<LeadService['list']>[1])
        return {
          data: page.data.map((lead: any) => ({
            id: lead.id,
            publisher: lead.publisher,
            reasons: lead.reasons,
            created_at: lead.created_at,
          })),
          next_cursor: page.next_cursor,
        }
      })
  )
  server.registerTool(
    'get_kpis',
    {
      title: 'Read KPIs',
      description:
        'The KPIs of GET /v1/reports/kpis for what this key may see (a publisher: its own leads): leads received, accepted, rejected, sold, acceptance rate, revenue and the rejection reasons, ' +
        'over `period` (e.g. `last_7_days`, `this_month`) or `from`/`to` (dates, `to` exclusive), optionally grouped by `group_by` (e.g. `channel`). Figures only, never personal data.',
      inputSchema: {
        period: z.enum(NAMED_PERIODS).optional(),
        from: z.string().max(40).optional(),
        to: z.string().max(40).optional(),
        group_by: z.enum(REPORT_DIMENSIONS).optional(),
      },
    },
    (query) =>
      guarded(async () => {
        allowed(new ReportPolicy().view(principal), 'read reports')
        const input = await kpiReportValidator.validate(
          Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined))
        )
        return services.reports.kpis(principal, await services.reports.kpiQuery(principal, input))
      })
  )

  // The disputes tools take the steps of POST /v1/leads/{id}/disputes and
  // POST /v1/disputes/{id}/responses in the same order: look up first, so what
  // is out of the key's sight is not_found and only a visible one forbidden.
  const disputePolicy = new DisputePolicy()
  const presentDispute = async (id: string) => {
    const detail = await services.disputeReader.show(principal, id)
    return services.serialize(DisputeDetailTransformer.transform(detail, audienceOf(principal)))
  }

  server.registerTool(
    'open_dispute',
    {
      title: 'Return a lead (open a dispute)',
      description:
        'Returns a lead that was sold to this buyer, as POST /v1/leads/{id}/disputes: `lead_id`, `reason` from the fixed list ' +
        `(${DISPUTE_REASONS.join(', ')}), and \`details\` saying what is wrong (required when the reason is \`other\`). ` +
        'Only while the sale is pending (inside the return window); one open dispute per lead. Answers the dispute: its id, status, ' +
        'the deadline by which the publisher answers, and any decision the rules took at once. Needs a live buyer key with submit.',
      inputSchema: {
        lead_id: z.string().uuid().describe('The id of a lead delivered to this buyer.'),
        reason: z.enum(DISPUTE_REASONS).describe('Why the lead is returned.'),
        details: z
          .string()
          .optional()
          .describe('What is wrong with the lead, in plain words; required for `other`.'),
      },
    },
    ({ lead_id: leadId, reason, details }) =>
      guarded(async () => {
        await services.leads.visiblePublisherId(principal, leadId)
        allowed(disputePolicy.open(principal), 'open disputes')
        const input = await openDisputeValidator.validate(
          details === undefined ? { reason } : { reason, details }
        )
        return presentDispute(await services.disputes.open(principal, leadId, input))
      })
  )

  server.registerTool(
    'answer_dispute',
    {
      title: 'Answer a dispute on your lead',
      description:
        "The publisher's answer to a buyer's dispute about one of its leads, as POST /v1/disputes/{id}/responses (text only; " +
        'attachments go through the HTTP API): `dispute_id` and `text`, the evidence that the lead is good (e.g. how the contact ' +
        "was reached, the consent given). Only before the dispute's respond_by deadline and while it is open; the operator then " +
        'decides. Answers the dispute with its thread. Needs a live publisher key with submit.',
      inputSchema: {
        dispute_id: z
          .string()
          .uuid()
          .describe('The dispute id (from the dispute.opened event or GET /v1/disputes).'),
        text: z.string().describe('The answer, plain text.'),
      },
    },
    ({ dispute_id: disputeId, text }) =>
      guarded(async () => {
        await services.disputeReader.findVisible(principal, disputeId)
        allowed(disputePolicy.respond(principal), 'answer disputes')
        const input = await respondToDisputeValidator.validate({ text })
        await services.disputes.respond(principal, disputeId, { text: input.text, files: [] })
        return presentDispute(disputeId)
      })
  )
  return server
}
