import Publisher from '#models/publisher'

const TTL_MS = 2000
const cache = new Map<string, { publisher: Promise<Publisher | null>; expires: number }>()

// The cache lives where intake reads it; a publisher saved in this process applies to its next lead.
Publisher.after('save', (publisher) => {
  cache.delete(publisher.slug)
})

/**
 * Intake reads the publisher (status, country, label, quality rules) for
 * every lead; this keeps it for two seconds per process. A change made in
 * this process applies at once; one made by another process
 * within two seconds.
 */
export async function publisherBySlug(slug: string) {
  const hit = cache.get(slug)
  if (hit && hit.expires > Date.now()) return hit.publisher
  // One read per slug at a time: the requests arriving while it runs wait for it (at 300
  // leads/s every request in flight when the entry lapsed read the publisher again).
  const publisher = Publisher.query().where('slug', slug).preload('label').first()
  const entry = { publisher, expires: Date.now() + TTL_MS }
  cache.set(slug, entry)
  publisher.catch(() => cache.get(slug) === entry && cache.delete(slug))
  return publisher
}
