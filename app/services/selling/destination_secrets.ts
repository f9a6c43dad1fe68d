import encryption from '@adonisjs/core/services/encryption'

const PURPOSE = 'destination-secrets'

/** A destination's secrets (auth passwords, tokens, CRM keys), encrypted with the app key. */
export function sealDestinationSecrets(secrets: Record<string, unknown>) {
  return encryption.encrypt(JSON.stringify(secrets), { purpose: PURPOSE })
}

export function openDestinationSecrets(ciphertext: string | null): Record<string, any> {
  if (!ciphertext) return {}
  const opened = encryption.decrypt<string>(ciphertext, PURPOSE)
  if (opened === null) {
    throw new Error("A destination's secrets could not be decrypted: was APP_KEY changed?")
  }
  return JSON.parse(opened)
}
