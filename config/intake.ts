import env from '#start/env'

const intakeConfig = {
  /**
   * Consent older than this is not accepted as proof for a new lead. A
   * publisher's rules may set their own `consent.max_age_days`.
   */
  consentMaxAgeDays: env.get('INTAKE_CONSENT_MAX_AGE_DAYS') ?? 365,
  /** How far a sender's clock may run ahead before a consent moment counts as "in the future". */
  clockSkewSeconds: env.get('INTAKE_CONSENT_CLOCK_SKEW_SECONDS') ?? 300,
}

export default intakeConfig
