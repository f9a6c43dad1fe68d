import Destination from '#models/destination'
import { openDestinationSecrets } from '#services/selling/destination_secrets'
import { openSecret } from '#services/webhooks/secrets'

/** A destination as a post needs it: its settings, its secrets opened, its signing key. */
export type LoadedDestination = {
  id: string
  buyerId: string
  name: string
  kind: Destination['kind']
  config: Record<string, any>
  secrets: Record<string, any>
  signingSecret: string | null
}

/** How long a worker keeps a destination it read: an edit reaches posts within this. */
const FRESH_MS = 2_000
const cache = new Map<string, { loaded: LoadedDestination | null; at: number }>()

/**
 * Destinations by id for the posts of a sale, each read at most once per couple of seconds per
 * process: at hundreds of posts a second to a few dozen buyers, a read per post would cost more
 * than the post's own bookkeeping.
 */
export async function loadDestination(id: string): Promise<LoadedDestination | null> {
  const known = cache.get(id)
  if (known && Date.now() - known.at < FRESH_MS) return known.loaded
  const row = await Destination.find(id)
  const loaded = row ? opened(row) : null
  if (cache.size >= 10_000) cache.clear()
  cache.set(id, { loaded, at: Date.now() })
  return loaded
}

export function opened(row: Destination): LoadedDestination {
  return {
    id: row.id,
    buyerId: row.buyerId,
    name: row.name,
    kind: row.kind,
    config: row.config ?? {},
    secrets: openDestinationSecrets(row.secrets),
    signingSecret: row.signingSecret ? openSecret(row.signingSecret) : null,
  }
}

/** Forgets a destination at once (after its owner changed it, in this process). */
export function forgetDestination(id: string) {
  cache.delete(id)
}
