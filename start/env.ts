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
  SESSION_DRIVER: Env.schema.enum.optional(['cookie', 'memory'] as const),

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
  API_RATE_WINDOW: Env.schema.string.optional(),
  OAUTH_TOKEN_TTL_SECONDS: Env.schema.number.optional(),

  /*
  |----------------------------------------------------------
  | Lead intake
  |----------------------------------------------------------
  */
  INTAKE_CONSENT_MAX_AGE_DAYS: Env.schema.number.optional(),
  INTAKE_CONSENT_CLOCK_SKEW_SECONDS: Env.schema.number.optional(),
})
