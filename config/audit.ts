import env from '#start/env'
import app from '@adonisjs/core/services/app'

/**
 * The audit log's identity and its sealer. The origin names the log in every
 * signed checkpoint (and is the key name of its signature line): it must
 * never change over the life of a log, so set AUDIT_ORIGIN in production.
 */
const auditConfig = {
  origin: env.get('AUDIT_ORIGIN') ?? defaultOrigin(),
  /**
   * The Ed25519 key that signs checkpoints: a PKCS#8 PEM, or the 32-byte seed
   * in base64. Required in production; development and test generate one
   * into `devKeyPath` on first use and keep it there.
   */
  signingKey: env.get('AUDIT_SIGNING_KEY'),
  devKeyPath: app.makePath('tmp/audit_signing_key.pem'),
  generateDevKey: !app.inProduction,
  seal: {
    /** The worker seals at least this often when anything is waiting. */
    intervalMs: (env.get('AUDIT_SEAL_INTERVAL_SECONDS') ?? 5) * 1000,
    /** How often the worker looks at the backlog between seals. */
    pollMs: 1000,
    /** A backlog this large is sealed at the next poll rather than at the next interval. */
    burstEntries: env.get('AUDIT_SEAL_BURST_ENTRIES') ?? 500,
    /** Entries read, hashed into the tree and written per round trip. */
    batchSize: 5000,
    /**
     * How old a run's snapshot must be before the sealer stops rescanning the
     * ids below it: far longer than the instant between drawing an entry id
     * and inserting the row.
     */
    settleMs: 10_000,
    /** An entry whose `ts` is further behind its sealing than this is recorded in `audit.sealing_lags`. */
    lagBoundMs: (env.get('AUDIT_SEAL_LAG_BOUND_SECONDS') ?? 60) * 1000,
  },
}

/** From APP_URL when set; never from the port a development server happens to use. */
function defaultOrigin() {
  const url = env.get('APP_URL')
  return `${url ? new URL(url).host : 'leadgate.localhost'}/audit-log`
}

export default auditConfig
