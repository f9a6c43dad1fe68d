import encryption from '@adonisjs/core/services/encryption'

const PURPOSE = 'ping'

/**
 * A ping's id as the publisher holds it: the ping's own id and the digest of its fields, signed
 * with the app key, so it cannot be forged or moved to other fields. Not secret: the publisher
 * may log it.
 */
export function pingIdOf(id: string, digest: string) {
  return encryption.getMessageVerifier().sign({ id, digest }, undefined, PURPOSE)
}

/** The ping a posted `ping_id` names, or null when it is not one Leadgate signed. */
export function openPingId(pingId: string): { id: string; digest: string } | null {
  if (pingId.length > 1000) return null
  const opened = encryption
    .getMessageVerifier()
    .unsign<{ id: string; digest: string }>(pingId, PURPOSE)
  return opened && typeof opened.id === 'string' && typeof opened.digest === 'string'
    ? opened
    : null
}
