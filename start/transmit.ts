/*
|--------------------------------------------------------------------------
| Live channels
|--------------------------------------------------------------------------
|
| Who may hear what over server-sent events (app/services/reports/live_feed.ts).
| A channel is authorised like the data: a publisher's people hear only their
| own publisher's; the operator hears any. The subscribe routes run the portal
| stack (start/routes/portal/reports.ts), so the callback sees the principal.
|
*/
import type { HttpContext } from '@adonisjs/core/http'
import transmit from '@adonisjs/transmit/services/main'

transmit.authorize<{ id: string }>('publishers/:id/live', (ctx: HttpContext, { id }) => {
  const principal = ctx.principal
  if (!principal) return false
  if (principal.isOperator) return true
  // Figures are reporting: a deliver-only publisher user does not see them, live or not.
  return principal.kind === 'publisher' && principal.publisherId === id && principal.can('read')
})
