import env from '#start/env'

/**
 * Where the deployment keeps personal data, and the addresses its webhooks leave from: stated
 * in the API (GET /v1/meta, GET /v1/meta/ip-ranges) so integrators can allow-list them.
 */
const privacyConfig = {
  region: env.get('APP_REGION') ?? 'eu-west-1',
  dataResidency:
    env.get('DATA_RESIDENCY') ??
    'Personal data is stored and processed in the European Union only; backups stay in the same region.',
  /** Unset, the one source address webhooks are bound to (WEBHOOK_SOURCE_ADDRESS) is published. */
  egressAddresses: (env.get('WEBHOOK_EGRESS_IPS') ?? env.get('WEBHOOK_SOURCE_ADDRESS') ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address.length > 0),
  /** How often the purge job runs, and how many rows one of its transactions touches. */
  purgeIntervalSeconds: env.get('PURGE_INTERVAL_SECONDS') ?? 300,
  purgeBatch: env.get('PURGE_BATCH') ?? 500,
}

export default privacyConfig
