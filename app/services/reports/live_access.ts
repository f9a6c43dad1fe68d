import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import db from '@adonisjs/lucid/services/db'
import transmit from '@adonisjs/transmit/services/main'
import User from '#models/user'
import type Principal from '#auth/principal'
import { principalForUser } from '#auth/portal_principal'
import { digestOf } from '#services/access/secret_token'
import { markWatched } from '#services/reports/live_watchers'

/** Who opened each live subscription of this process, by stream uid. */
type Listener = { userId: string; sessionHash: string }
const listeners = new Map<string, Listener>()
/** How often every subscription is checked again against its user and session. */
const RECHECK_MS = 5000
let watching: NodeJS.Timeout | undefined

const LIVE_CHANNEL = /^publishers\/([^/]+)\/live$/

/**
 * Who may hear a publisher's live figures: its own people with `read` (figures are
 * reporting, so a deliver-only user does not), and the operator.
 */
export function mayHearPublisher(principal: Principal | undefined, publisherId: string) {
  if (!principal) return false
  if (principal.isOperator) return true
  return (
    principal.kind === 'publisher' && principal.publisherId === publisherId && principal.can('read')
  )
}

/**
 * Transmit authorises a channel once, when the page subscribes; a stream
 * then hears every broadcast until it closes. So each subscription is
 * remembered with its user and session (`subscribed`, told by
 * start/transmit.ts, which reads them from the request) and checked again
 * every few seconds (and at once after a sign-out here): a session signed
 * out or revoked, a user disabled or moved, a permission taken away ends
 * the subscription, and the figures stop. Call once per process at boot.
 */
export function watchLiveAccess() {
  if (watching) return
  transmit.on('disconnect', ({ uid }) => listeners.delete(uid))
  watching = setInterval(() => void recheckLiveAccess(), RECHECK_MS)
  watching.unref()
}

/** A stream subscribed to a channel: by this signed-in user in this session, or by nobody known. */
export function subscribed(
  uid: string,
  channel: string,
  listener: { userId: string; sessionId: string } | null
) {
  if (listener) {
    listeners.set(uid, { userId: listener.userId, sessionHash: digestOf(listener.sessionId) })
  }
  const live = LIVE_CHANNEL.exec(channel)
  if (live) void markWatched([live[1]])
}

/**
 * Ends the subscriptions whose user may no longer hear them, and marks the
 * publishers of the others as watched; never throws. Returns how many ended.
 */
export async function recheckLiveAccess() {
  if (app.isTerminating || app.isTerminated) return 0
  try {
    const manager = transmit.getManager()
    const open = [...manager.getAllSubscribers()].flatMap(([stream, channels]) =>
      [...channels].map((channel) => ({ uid: stream.getUid(), channel }))
    )
    const live = open.filter(({ channel }) => LIVE_CHANNEL.test(channel))
    if (live.length === 0) return 0
    const allowed = await allowedPrincipals(live.map(({ uid }) => uid))
    let ended = 0
    const watched = new Set<string>()
    for (const { uid, channel } of live) {
      const publisherId = LIVE_CHANNEL.exec(channel)![1]
      if (mayHearPublisher(allowed.get(uid), publisherId)) {
        watched.add(publisherId)
        continue
      }
      await manager.unsubscribe({ uid, channel })
      ended++
    }
    await markWatched([...watched])
    return ended
  } catch (error) {
    logger.warn({ err: error }, 'live feed: could not check the subscriptions again')
    return 0
  }
}

/** The principal of each uid whose session is still open and whose user is enabled. */
async function allowedPrincipals(uids: string[]) {
  const known = uids.flatMap((uid) => {
    const listener = listeners.get(uid)
    return listener ? [{ uid, ...listener }] : []
  })
  const principals = new Map<string, Principal>()
  if (known.length === 0) return principals
  const open = await db
    .from('user_sessions')
    .whereIn('session_hash', [...new Set(known.map(({ sessionHash }) => sessionHash))])
    .whereNull('revoked_at')
    .select('session_hash', 'user_id')
  const openSessions = new Set(open.map((row) => `${row.user_id}|${row.session_hash}`))
  const users = await User.query()
    .whereIn('id', [...new Set(open.map((row) => row.user_id as string))])
    .whereNull('disabled_at')
  const byId = new Map(users.map((user) => [user.id, principalForUser(user)]))
  for (const { uid, userId, sessionHash } of known) {
    const principal = byId.get(userId)
    if (principal && openSessions.has(`${userId}|${sessionHash}`)) principals.set(uid, principal)
  }
  return principals
}
