import Publisher from '#models/publisher'

const TTL_MS = 2000
const cache = new Map<string, { publisher: Publisher | null; expires: number }>()

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
  const publisher = await Publisher.query().where('slug', slug).preload('label').first()
  cache.set(slug, { publisher, expires: Date.now() + TTL_MS })
  return publisher
}
