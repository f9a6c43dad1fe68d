import { onBeforeUnmount, onMounted, ref } from 'vue'
import { router } from '@inertiajs/vue3'
import { Transmit } from '@adonisjs/transmit-client'

/** At most one refresh a second, however fast leads arrive; the last change is never dropped. */
const MIN_GAP_MS = 1000

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'refused'

/** What the live feed sends (app/services/reports/live_feed.ts); `figures` since issue #18. */
type LiveMessage = {
  change?: string
  environment?: string
  computed_at?: string
  figures?: Record<string, unknown>
}

/**
 * Keeps a page's figures current over server-sent events: subscribes to the page's channel
 * (`@adonisjs/transmit`, authorised by start/transmit.ts). A message carrying the figures
 * (computed once on the server for every open tab) replaces the named props at once, without
 * a request. One without them (an older server, a failed computation) makes the page ask the
 * server for the props again (an Inertia partial reload), one reload at a time. After a lost
 * connection it reloads once more, for what it may have missed.
 */
export function useLiveRefresh(channel: string, only: string[]) {
  const status = ref<LiveStatus>('connecting')
  const refreshedAt = ref(new Date())
  let transmit: Transmit | null = null
  let reloading = false
  let again = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let lastStart = 0
  let wasLive = false
  let cancelReload: (() => void) | undefined

  const refresh = () => {
    if (reloading) {
      again = true
      return
    }
    const wait = lastStart + MIN_GAP_MS - Date.now()
    if (wait > 0) {
      again = true
      timer ??= setTimeout(() => {
        timer = undefined
        if (again) refresh()
      }, wait)
      return
    }
    again = false
    reloading = true
    lastStart = Date.now()
    router.reload({
      only,
      onCancelToken: ({ cancel }) => {
        cancelReload = cancel
      },
      onSuccess: () => {
        refreshedAt.value = new Date()
      },
      onFinish: () => {
        cancelReload = undefined
        reloading = false
        if (again) refresh()
      },
    })
  }

  /** The pushed figures: only the props this page asked for, the rest of the page untouched. */
  const apply = (figures: Record<string, unknown>) => {
    // A reload waiting for its turn would only fetch what just arrived, and one under way
    // could answer after it with figures read before it.
    again = false
    clearTimeout(timer)
    timer = undefined
    cancelReload?.()
    const pushed = Object.fromEntries(
      only.filter((name) => name in figures).map((name) => [name, figures[name]])
    )
    router.replace({
      props: (current) => ({ ...current, ...pushed }),
      preserveScroll: true,
      preserveState: true,
    })
    refreshedAt.value = new Date()
  }

  const onMessage = (message: LiveMessage) => {
    // The page shows live figures only.
    if (message?.environment && message.environment !== 'live') return
    if (message?.figures) apply(message.figures)
    else refresh()
  }

  onMounted(() => {
    transmit = new Transmit({
      baseUrl: window.location.origin,
      onSubscribeFailed: () => {
        status.value = 'refused'
      },
    })
    transmit.on('connected', () => {
      if (status.value === 'refused') return
      status.value = 'live'
      // Back after a break: what arrived meanwhile was not heard.
      if (wasLive) refresh()
      wasLive = true
    })
    transmit.on('reconnecting', () => {
      if (status.value !== 'refused') status.value = 'reconnecting'
    })
    const subscription = transmit.subscription(channel)
    subscription.onMessage<LiveMessage>(onMessage)
    void subscription.create()
  })

  onBeforeUnmount(() => {
    clearTimeout(timer)
    transmit?.close()
    transmit = null
  })

  return { status, refreshedAt }
}
