import { type KeyObject, createHmac, createSecretKey, randomBytes } from 'node:crypto'

const PREFIX = 'whsec_'

/** `whsec_` and the base64 of 32 random bytes: the Standard Webhooks secret format. */
export function newSigningSecret() {
  return `${PREFIX}${randomBytes(32).toString('base64')}`
}

/** Key objects by secret: building one per signature costs more than the HMAC itself. */
const keys = new Map<string, KeyObject>()

function keyOf(secret: string) {
  let key = keys.get(secret)
  if (!key) {
    key = createSecretKey(
      Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
    )
    if (keys.size >= 10_000) keys.clear()
    keys.set(secret, key)
  }
  return key
}

/**
 * The headers that authenticate one send. One HMAC-SHA256 per secret over
 * `<event_id>.<unix seconds>.<raw body>`, carried twice: as Standard Webhooks
 * `v1,<base64>` and as `sha256=<hex>`. During a rotation every live secret
 * signs, space-separated, newest first.
 */
export function signatureHeaders(
  secrets: string[],
  eventId: string,
  timestamp: number,
  body: string
) {
  const content = `${eventId}.${timestamp}.${body}`
  const macs = secrets.map((secret) => createHmac('sha256', keyOf(secret)).update(content).digest())
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': macs.map((mac) => `v1,${mac.toString('base64')}`).join(' '),
    'x-leadgate-signature': macs.map((mac) => `sha256=${mac.toString('hex')}`).join(' '),
    'x-leadgate-event-id': eventId,
    'x-leadgate-timestamp': String(timestamp),
  }
}
