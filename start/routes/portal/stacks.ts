import { middleware } from '#start/kernel'
import type { PrincipalKind } from '#auth/principal'

/** Every portal page runs with a session, CSRF protection and the (silent) session guard. */
export const sessionStack = () => [
  middleware.session(),
  middleware.shield(),
  middleware.initializeAuth(),
  middleware.silentAuth(),
]

/** Signed in, authorised through the user's principal, and inside the portal of its role. */
export const portalStack = (...kinds: PrincipalKind[]) => [
  ...sessionStack(),
  middleware.auth(),
  middleware.portalBouncer(),
  ...(kinds.length ? [middleware.portalRole({ kinds })] : []),
]
