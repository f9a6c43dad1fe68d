import env from '#start/env'

const intakeConfig = {
  /**
   * Consent older than this is not accepted as proof for a new lead. A
   * publisher's rules may set their own `consent.max_age_days`.
   */
  consentMaxAgeDays: env.get('INTAKE_CONSENT_MAX_AGE_DAYS') ?? 365,
  /** How far a sender's clock may run ahead before a consent moment counts as "in the future". */
  clockSkewSeconds: env.get('INTAKE_CONSENT_CLOCK_SKEW_SECONDS') ?? 300,
  /**
   * Leads of one publisher arriving while its transactions are busy are
   * written together (GroupCommit): at most `maxSize` per transaction and
   * `maxInFlight` transactions per publisher and environment at once.
   */
  groupCommit: {
    maxSize: env.get('INTAKE_GROUP_MAX_SIZE') ?? 32,
    maxInFlight: env.get('INTAKE_GROUP_MAX_IN_FLIGHT') ?? 1,
  },
}

export default intakeConfig
