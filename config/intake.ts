/**
 * Lead intake settings. The defaults are written here until start/env.ts
 * declares INTAKE_CONSENT_MAX_AGE_DAYS and INTAKE_CONSENT_CLOCK_SKEW_SECONDS;
 * then read them with env.get(...) ?? default.
 */
const intakeConfig = {
  /**
   * Consent older than this is not accepted as proof for a new lead. A
   * publisher's rules may set their own `consent.max_age_days`.
   */
  consentMaxAgeDays: 365,
  /** How far a sender's clock may run ahead before a consent moment counts as "in the future". */
  clockSkewSeconds: 300,
}

export default intakeConfig
