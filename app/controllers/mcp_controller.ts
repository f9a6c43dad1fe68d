import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import IntakeService from '#services/intake/intake_service'
import LeadService from '#services/leads/lead_service'
import ReportService from '#services/reports/report_service'
import DisputeService from '#services/money/dispute_service'
import DisputeReader from '#services/money/dispute_reader'
import { agentOf, buildMcpServer } from '#controllers/concerns/mcp_tools'

/**
 * The MCP server for AI agents (docs/agents.md): Streamable HTTP, stateless
 * (a server per request, JSON answers), authenticated with a Leadgate key
 * like every API route; the tools act as `agent:<key id>`.
 */
@inject()
export default class McpController {
  constructor(
    protected intake: IntakeService,
    protected leads: LeadService,
    protected reports: ReportService,
    protected disputes: DisputeService,
    protected disputeReader: DisputeReader
  ) {}

  async handle({ request, response, principal, serialize }: HttpContext) {
    const server = buildMcpServer(agentOf(principal), {
      intake: this.intake,
      leads: this.leads,
      reports: this.reports,
      disputes: this.disputes,
      disputeReader: this.disputeReader,
      serialize,
    })
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    response.response.on('close', () => {
      void transport.close()
      void server.close()
    })
    await server.connect(transport)
    await transport.handleRequest(request.request, response.response, request.body())
  }
}
