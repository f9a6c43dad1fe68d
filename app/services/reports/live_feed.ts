import logger from '@adonisjs/core/services/logger'
import transmit from '@adonisjs/transmit/services/main'
import type { Environment } from '#auth/principal'

/** A live dashboard's channel: one per publisher, authorised in start/transmit.ts. */
export const liveChannel = (publisherId: string) => `publishers/${publisherId}/live`

/**
 * What a dashboard hears: that the publisher's figures changed in one environment, nothing
 * about any lead. The page asks for its figures again, through the same service and policy
 * as the API, so a broadcast can never show more than the page would.
 */
export type LiveChange = { change: 'leads'; environment: Environment }

/** Leads recorded within this window go out as one message per publisher and environment. */
const COALESCE_MS = 100
const waiting = new Set<string>()

/**
 * Tells a publisher's open dashboards that leads were recorded. Call it after intake's
 * commit, never inside the transaction. Never throws and never waits: a burst of leads
 * (300 a second, an upload's rows) becomes one message per publisher every 100 ms, and
 * with Redis away the local dashboards still hear it while the others miss it until Redis
 * is back (transmit's bus retries it then); intake never notices.
 */
export function announceLeads(publisherId: string, environment: Environment) {
  const key = `${publisherId}:${environment}`
  if (waiting.has(key)) return
  waiting.add(key)
  setTimeout(() => {
    waiting.delete(key)
    try {
      const message: LiveChange = { change: 'leads', environment }
      transmit.broadcast(liveChannel(publisherId), message)
    } catch (error) {
      logger.warn({ err: error }, 'live feed: could not broadcast')
    }
  }, COALESCE_MS).unref()
}
