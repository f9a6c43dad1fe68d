import vine, { errors as vineErrors } from '@vinejs/vine'
import encryption from '@adonisjs/core/services/encryption'
import ApiProblem, { type FieldError } from '#exceptions/api_problem'
import type { PluginManifest, SettingField } from '#plugins/contract'

const PURPOSE = 'plugin-installation-secrets'

function fieldSchema(field: SettingField, required: boolean) {
  if (field.type === 'boolean') return vine.boolean().optional()
  if (field.type === 'mapping')
    return vine.record(vine.string().trim().minLength(1).maxLength(200)).optional()
  let schema = vine
    .string()
    .trim()
    .maxLength(field.format === 'multiline' ? 10_000 : 2000)
  if (field.format === 'url')
    schema = schema.url({ require_protocol: true, protocols: ['http', 'https'] })
  return required && field.required ? schema : schema.optional()
}

/**
 * Checks settings against the manifest's schema (VineJS, built from it).
 * `complete`: an installation's whole settings (required fields present);
 * otherwise a patch. Unknown keys are refused, never dropped silently.
 */
export async function validateSettings(
  manifest: PluginManifest,
  input: Record<string, unknown>,
  complete: boolean
) {
  const unknown = Object.keys(input).filter((key) => !(key in manifest.settings))
  if (unknown.length > 0) {
    throw ApiProblem.unprocessable(
      unknown.map((key) => ({
        field: `settings.${key}`,
        code: 'unknown_field',
        message: `${manifest.name} has no setting "${key}".`,
      }))
    )
  }
  const shape = Object.fromEntries(
    Object.entries(manifest.settings).map(([key, field]) => [key, fieldSchema(field, complete)])
  )
  try {
    return (await vine.validate({ schema: vine.object(shape), data: input })) as Record<
      string,
      unknown
    >
  } catch (error) {
    if (!(error instanceof vineErrors.E_VALIDATION_ERROR)) throw error
    const problems: FieldError[] = (error.messages as any[]).map((message) => ({
      field: `settings.${message.field}`,
      code: message.rule,
      message: message.message,
    }))
    throw ApiProblem.unprocessable(problems)
  }
}

/** Secret settings apart from the rest: the first are encrypted, the second stored as JSON. */
export function splitSecrets(manifest: PluginManifest, settings: Record<string, unknown>) {
  const plain: Record<string, unknown> = {}
  const secrets: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(settings)) {
    const field = manifest.settings[key]
    if (field?.type === 'string' && field.secret) secrets[key] = value
    else plain[key] = value
  }
  return { plain, secrets }
}

export function sealSecrets(secrets: Record<string, unknown>) {
  return Object.keys(secrets).length === 0
    ? null
    : encryption.encrypt(JSON.stringify(secrets), { purpose: PURPOSE })
}

export function openSecrets(ciphertext: string | null): Record<string, unknown> {
  if (!ciphertext) return {}
  const json = encryption.decrypt<string>(ciphertext, PURPOSE)
  if (!json) throw new Error('Plugin secrets could not be decrypted: was APP_KEY changed?')
  return JSON.parse(json)
}

/** Defaults first, then what the operator set. */
export function withDefaults(manifest: PluginManifest, settings: Record<string, unknown>) {
  const defaults = Object.fromEntries(
    Object.entries(manifest.settings)
      .filter(([, field]) => field.default !== undefined)
      .map(([key, field]) => [key, field.default])
  )
  return { ...defaults, ...settings }
}

/** Which secret settings are set, never their values. */
export function secretNames(manifest: PluginManifest) {
  return Object.entries(manifest.settings)
    .filter(([, field]) => field.type === 'string' && field.secret)
    .map(([key]) => key)
}
