/*
|--------------------------------------------------------------------------
| Environment variables service
|--------------------------------------------------------------------------
|
| Only APP_KEY has no default: everything else falls back to the local
| services of a development machine so a fresh clone runs without editing.
|
*/
import { Env } from '@adonisjs/core/env'

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test'] as const),
  PORT: Env.schema.number.optional(),
  HOST: Env.schema.string.optional({ format: 'host' }),
  APP_KEY: Env.schema.secret(),
  APP_URL: Env.schema.string.optional(),
  LOG_LEVEL: Env.schema.string.optional(),
  SESSION_DRIVER: Env.schema.enum.optional(['redis', 'cookie', 'memory'] as const),

  /*
  |----------------------------------------------------------
  | Services
  |----------------------------------------------------------
  */
  DATABASE_URL: Env.schema.string.optional(),
  DATABASE_ADMIN_URL: Env.schema.string.optional(),
  TEST_DATABASE_NAME: Env.schema.string.optional(),
  REDIS_URL: Env.schema.string.optional(),
  SMTP_HOST: Env.schema.string.optional(),
  SMTP_PORT: Env.schema.number.optional(),
  MAIL_FROM: Env.schema.string.optional(),

  /*
  |----------------------------------------------------------
  | API limits
  |----------------------------------------------------------
  */
  API_BODY_LIMIT: Env.schema.string.optional(),
  API_RATE_LIMIT: Env.schema.number.optional(),
  API_MAX_IN_FLIGHT: Env.schema.number.optional(),
  API_RATE_WINDOW: Env.schema.string.optional(),
  OAUTH_TOKEN_TTL_SECONDS: Env.schema.number.optional(),

  /*
  |----------------------------------------------------------
  | Lead intake
  |----------------------------------------------------------
  */
  INTAKE_CONSENT_MAX_AGE_DAYS: Env.schema.number.optional(),
  INTAKE_CONSENT_CLOCK_SKEW_SECONDS: Env.schema.number.optional(),
  INTAKE_GROUP_MAX_SIZE: Env.schema.number.optional(),
  INTAKE_GROUP_MAX_IN_FLIGHT: Env.schema.number.optional(),
  /** Proxies whose X-Forwarded-For is believed (proxy-addr syntax: `loopback`, `10.0.0.0/8`, …). */
  TRUSTED_PROXIES: Env.schema.string.optional(),

  /*
  |----------------------------------------------------------
  | Hosted forms
  |----------------------------------------------------------
  */
  FORMS_MIN_FILL_MS: Env.schema.number.optional(),
  FORMS_TOKEN_TTL: Env.schema.string.optional(),
  FORMS_RATE_LIMIT: Env.schema.number.optional(),
  FORMS_RATE_WINDOW: Env.schema.string.optional(),

  /*
  |----------------------------------------------------------
  | Routing
  |----------------------------------------------------------
  */
  ROUTING_QUEUE_PREFIX: Env.schema.string.optional(),
  ROUTING_CONCURRENCY: Env.schema.number.optional(),
  ROUTING_GROUP_MAX_SIZE: Env.schema.number.optional(),
  ROUTING_ENQUEUE_LINGER_MS: Env.schema.number.optional(),
  ROUTING_GROUP_MAX_IN_FLIGHT: Env.schema.number.optional(),
  ROUTING_RETRY_MAX_AGE_HOURS: Env.schema.number.optional(),
  ROUTING_SWEEP_INTERVAL_SECONDS: Env.schema.number.optional(),
  ROUTING_LOST_AFTER_SECONDS: Env.schema.number.optional(),
  ROUTING_LOCK_SECONDS: Env.schema.number.optional(),
  ROUTING_STALLED_INTERVAL_SECONDS: Env.schema.number.optional(),
  ROUTING_DEFAULT_TIMEZONE: Env.schema.string.optional(),

  /*
  |----------------------------------------------------------
  | Uploads (config/uploads.ts)
  |----------------------------------------------------------
  */
  UPLOAD_MAX_BYTES: Env.schema.number.optional(),
  UPLOAD_MAX_ROWS: Env.schema.number.optional(),
  UPLOAD_QUEUE_PREFIX: Env.schema.string.optional(),
  UPLOAD_VALIDATE_BATCH: Env.schema.number.optional(),
  UPLOAD_ACCEPT_BATCH: Env.schema.number.optional(),
  UPLOAD_LOCK_SECONDS: Env.schema.number.optional(),
  UPLOAD_STALLED_INTERVAL_SECONDS: Env.schema.number.optional(),
  UPLOAD_SWEEP_INTERVAL_SECONDS: Env.schema.number.optional(),

  /*
  |----------------------------------------------------------
  | Webhooks (config/webhooks.ts; durations like "5s", "2h")
  |----------------------------------------------------------
  */
  WEBHOOK_QUEUE_PREFIX: Env.schema.string.optional(),
  WEBHOOK_CONCURRENCY: Env.schema.number.optional(),
  WEBHOOK_LOCK_DURATION: Env.schema.string.optional(),
  WEBHOOK_STALLED_INTERVAL: Env.schema.string.optional(),
  WEBHOOK_RETRY_SCHEDULE: Env.schema.string.optional(),
  WEBHOOK_MIN_THROTTLE_DELAY: Env.schema.string.optional(),
  WEBHOOK_RETRY_AFTER_CAP: Env.schema.string.optional(),
  WEBHOOK_CONNECT_TIMEOUT: Env.schema.string.optional(),
  WEBHOOK_TOTAL_TIMEOUT: Env.schema.string.optional(),
  WEBHOOK_LEASE: Env.schema.string.optional(),
  WEBHOOK_RELAY_POLL: Env.schema.string.optional(),
  WEBHOOK_SWEEP_INTERVAL: Env.schema.string.optional(),
  WEBHOOK_STALE_AFTER: Env.schema.string.optional(),
  WEBHOOK_RATE_LIMIT_PER_SECOND: Env.schema.number.optional(),
  WEBHOOK_DISABLE_AFTER: Env.schema.string.optional(),
  WEBHOOK_WARN_BEFORE: Env.schema.string.optional(),
  WEBHOOK_PROBE_INTERVAL: Env.schema.string.optional(),
  WEBHOOK_LAST_SUCCESS_EVERY: Env.schema.string.optional(),
  WEBHOOK_BREAKER_WINDOW: Env.schema.string.optional(),
  WEBHOOK_BREAKER_COOLDOWN: Env.schema.string.optional(),
  WEBHOOK_BREAKER_MAX_COOLDOWN: Env.schema.string.optional(),
  WEBHOOK_SECRET_OVERLAP: Env.schema.string.optional(),
  WEBHOOK_ALLOW_PRIVATE: Env.schema.string.optional(),
  WEBHOOK_REQUIRE_HTTPS: Env.schema.boolean.optional(),

  /*
  |----------------------------------------------------------
  | Audit log sealing
  |----------------------------------------------------------
  */
  AUDIT_SIGNING_KEY: Env.schema.string.optional(),
  AUDIT_ORIGIN: Env.schema.string.optional(),
  AUDIT_SEAL_INTERVAL_SECONDS: Env.schema.number.optional(),
  AUDIT_SEAL_BURST_ENTRIES: Env.schema.number.optional(),
  AUDIT_SEAL_LAG_BOUND_SECONDS: Env.schema.number.optional(),

  /*
  |----------------------------------------------------------
  | Locks (config/lock.ts) and money (config/money.ts)
  |----------------------------------------------------------
  */
  LOCK_STORE: Env.schema.enum.optional(['redis', 'memory'] as const),
  SETTLEMENT_TICK_SECONDS: Env.schema.number.optional(),

  /*
  |----------------------------------------------------------
  | Privacy and residency (config/privacy.ts, docs/privacy.md)
  |----------------------------------------------------------
  */
  APP_REGION: Env.schema.string.optional(),
  DATA_RESIDENCY: Env.schema.string.optional(),
  WEBHOOK_EGRESS_IPS: Env.schema.string.optional(),
  WEBHOOK_SOURCE_ADDRESS: Env.schema.string.optional(),
  PURGE_INTERVAL_SECONDS: Env.schema.number.optional(),
  PURGE_BATCH: Env.schema.number.optional(),

  /*
  |----------------------------------------------------------
  | Reports (config/reports.ts, docs/reports.md)
  |----------------------------------------------------------
  */
  REPORT_FOLD_INTERVAL_MS: Env.schema.number.optional(),
})
