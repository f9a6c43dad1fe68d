import env from '#start/env'

/** Hosted forms: the bot screen and the page token (docs/forms.md). */
const formsConfig = {
  /** A submission sooner than this after the page was served is a bot's; humans get the form back. */
  minFillMs: env.get('FORMS_MIN_FILL_MS') ?? 2000,
  /** How long a served page may be submitted. */
  tokenTtl: env.get('FORMS_TOKEN_TTL') ?? '24 hours',
  /** Submissions per address and window, across all forms (counted in Redis). */
  rateLimit: {
    requests: env.get('FORMS_RATE_LIMIT') ?? 20,
    duration: env.get('FORMS_RATE_WINDOW') ?? '10 minutes',
  },
}

export default formsConfig
