import type { HttpContext } from '@adonisjs/core/http'
import type User from '#models/user'
import UserSessionService from '#services/access/user_session_service'
import type { TokenUnavailable } from '#services/access/account_tokens'

/**
 * Signs `user` in and records the sign-in, so it shows in the user's session
 * list and can be ended from there. Every way into the portal goes through here:
 * a session without its row is ended by the auth middleware.
 */
export async function signInToPortal(ctx: HttpContext, user: User) {
  await ctx.auth.use('web').login(user)
  const sessions = await ctx.containerResolver.make(UserSessionService)
  // login() regenerated the session id; the row names the new one.
  await sessions.open(user, ctx.session.sessionId, ctx.request.header('user-agent'))
}

/** "3 minutes": how long a throttled visitor waits, rounded up to whole minutes. */
export function waitFor(seconds: number) {
  const minutes = Math.max(1, Math.ceil(seconds / 60))
  return minutes === 1 ? '1 minute' : `${minutes} minutes`
}

/** A reset or welcome link that cannot be used: an unknown one is not found, a spent or expired one is gone. */
export function linkUnavailable(
  { inertia, response }: Pick<HttpContext, 'inertia' | 'response'>,
  reason: TokenUnavailable,
  purpose: 'password_reset' | 'invitation'
) {
  response.status(reason === 'unknown' ? 404 : 410)
  return inertia.render('auth/link_unavailable', { reason, purpose })
}
