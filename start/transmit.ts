/*
|--------------------------------------------------------------------------
| Live channels
|--------------------------------------------------------------------------
|
| Who may hear what over server-sent events (app/services/reports/live_feed.ts).
| A channel is authorised like the data: a publisher's people hear only their
| own publisher's; the operator hears any. The subscribe routes run the portal
| stack (start/routes/portal/reports.ts), so the callback sees the principal.
| A subscription ends when its session, user or permission does
| (app/services/reports/live_access.ts).
|
*/
import type { HttpContext } from '@adonisjs/core/http'
import transmit from '@adonisjs/transmit/services/main'
import type User from '#models/user'
import { mayHearPublisher, subscribed, watchLiveAccess } from '#services/reports/live_access'

transmit.authorize<{ id: string }>('publishers/:id/live', (ctx: HttpContext, { id }) =>
  mayHearPublisher(ctx.principal, id)
)

// Authorised at subscribe, and again every few seconds while the stream is open: the engine is
// told who subscribed, never handed the request.
transmit.on('subscribe', ({ uid, channel, context }) => {
  const ctx = context as HttpContext
  const user = ctx.auth?.user as User | undefined
  subscribed(uid, channel, user ? { userId: user.id, sessionId: ctx.session.sessionId } : null)
})
watchLiveAccess()
