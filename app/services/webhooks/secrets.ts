import encryption from '@adonisjs/core/services/encryption'

const PURPOSE = 'webhook-signing-secret'

/** Signing secrets must be readable at send time, so they are encrypted (AES-256-GCM, the app key), not hashed. */
export function sealSecret(secret: string) {
  return encryption.encrypt(secret, { purpose: PURPOSE })
}

/** Workers sign thousands of deliveries a second with a handful of secrets: decrypt each once. */
const opened = new Map<string, string>()

export function openSecret(ciphertext: string) {
  const known = opened.get(ciphertext)
  if (known) return known
  const secret = encryption.decrypt<string>(ciphertext, PURPOSE)
  if (!secret)
    throw new Error('A webhook signing secret could not be decrypted: was APP_KEY changed?')
  if (opened.size >= 10_000) opened.clear()
  opened.set(ciphertext, secret)
  return secret
}

type SecretColumns = {
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: Date | string | null
}

/** The secrets that sign now: the current one, and the previous one during its 24 h overlap. */
export function signingSecrets(row: SecretColumns, now: Date) {
  const secrets = [openSecret(row.secret)]
  if (
    row.previous_secret &&
    row.previous_secret_expires_at &&
    new Date(row.previous_secret_expires_at) > now
  ) {
    secrets.push(openSecret(row.previous_secret))
  }
  return secrets
}
