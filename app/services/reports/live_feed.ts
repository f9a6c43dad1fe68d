import app from '@adonisjs/core/services/app'
import logger from '@adonisjs/core/services/logger'
import transmit from '@adonisjs/transmit/services/main'
import type { Environment } from '#auth/principal'
import LiveFiguresService, { type LiveFigures } from '#services/reports/live_figures'
import { watchedAmong } from '#services/reports/live_watchers'

/** A live dashboard's channel: one per publisher, authorised in start/transmit.ts. */
export const liveChannel = (publisherId: string) => `publishers/${publisherId}/live`

/**
 * What a dashboard hears: the publisher's figures, computed once for all its open tabs
 * (`computed_at` is when their reading began: every lead stored before it is in them). Only
 * aggregates, as the publisher's own principal reads them: never a lead, never personal data,
 * never a price, revenue or margin. A message without figures (an older server, a failed
 * computation) only says they changed; the page then asks for them itself.
 */
export type LiveChange = {
  change: 'leads'
  environment: Environment
  computed_at?: string
  figures?: LiveFigures
}

/** The first computation after a quiet spell waits this long, so a burst's leads go together. */
const FIRST_DELAY_MS = 150
/**
 * Computations start on a 100 ms grid, so the publishers due about the same time are read
 * together (their KPIs in one grouped reading): the first within 150–250 ms of a lead.
 */
const TICK_MS = 100
/** At most one computation a second per publisher, however fast its leads arrive. */
const MIN_GAP_MS = 1000
/** Batches at once in this process; each is a few grouped readings (live_figures.ts). */
const MAX_ACTIVE = 2
/** Publishers per batch: bounds one grouped reading and the burst of messages after it. */
const BATCH_MAX = 50

type State = { pending: boolean; scheduled: boolean; running: boolean; lastStart: number }
/** One entry per publisher heard of since the process started: the gap needs its last start. */
const states = new Map<string, State>()
/** The publishers due at each tick of the grid, one timer per tick. */
const ticks = new Map<number, string[]>()
const due: string[] = []
let active = 0

/**
 * Tells a publisher's open dashboards that leads were recorded. Call it after intake's
 * commit, never inside the transaction. Never throws and never waits: the figures are computed
 * later, once for every open tab of the publisher (not once per tab: 500 tabs reloading
 * their own figures saturated 2 cores), at most once a second, and pushed over server-sent
 * events. With Redis away the local dashboards still hear it while the others miss it until
 * Redis is back (transmit's bus retries it then); intake never notices. Sandbox leads are
 * not announced: the dashboard shows live figures only.
 */
export function announceLeads(publisherId: string, environment: Environment) {
  if (environment !== 'live') return
  let state = states.get(publisherId)
  if (!state) {
    state = { pending: false, scheduled: false, running: false, lastStart: 0 }
    states.set(publisherId, state)
  }
  state.pending = true
  schedule(publisherId, state)
}

/** Waiting, queued or running: a publisher's next computation is already coming. */
function schedule(publisherId: string, state: State) {
  if (state.scheduled || state.running) return
  state.scheduled = true
  const earliest = Math.max(Date.now() + FIRST_DELAY_MS, state.lastStart + MIN_GAP_MS)
  const tick = Math.ceil(earliest / TICK_MS) * TICK_MS
  const publishers = ticks.get(tick)
  if (publishers) return void publishers.push(publisherId)
  ticks.set(tick, [publisherId])
  setTimeout(() => {
    due.push(...ticks.get(tick)!)
    ticks.delete(tick)
    pump()
  }, tick - Date.now()).unref()
}

function pump() {
  while (active < MAX_ACTIVE && due.length > 0) {
    const batch = due.splice(0, BATCH_MAX)
    const startedAt = new Date()
    for (const publisherId of batch) {
      const state = states.get(publisherId)!
      state.scheduled = false
      state.running = true
      // Leads announced from here on may be missed by this reading: they call for the next one.
      state.pending = false
      state.lastStart = startedAt.getTime()
    }
    active++
    void push(batch, startedAt).finally(() => {
      active--
      for (const publisherId of batch) {
        const state = states.get(publisherId)!
        state.running = false
        if (state.pending) schedule(publisherId, state)
      }
      pump()
    })
  }
}

/** Computes and broadcasts, for the publishers someone is watching; never throws. */
async function push(batch: string[], startedAt: Date) {
  // A computation due after shutdown began would open connections again and keep the process up.
  if (app.isTerminating || app.isTerminated) return
  const publisherIds = await watchedAmong(batch)
  if (publisherIds.length === 0) return
  let figures = new Map<string, LiveFigures>()
  try {
    const service = await app.container.make(LiveFiguresService)
    figures = await service.figuresOfPublishers(publisherIds)
  } catch (error) {
    logger.warn({ err: error }, 'live feed: could not compute the figures')
  }
  for (const publisherId of publisherIds) {
    const found = figures.get(publisherId)
    // Without its figures a page still hears the change, and reads them itself.
    const message: LiveChange = found
      ? {
          change: 'leads',
          environment: 'live',
          computed_at: startedAt.toISOString(),
          figures: found,
        }
      : { change: 'leads', environment: 'live' }
    try {
      transmit.broadcast(liveChannel(publisherId), message)
    } catch (error) {
      logger.warn({ err: error }, 'live feed: could not broadcast')
    }
  }
}
