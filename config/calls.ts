/**
 * Call tracking (docs/calls.md). A call without a lead id attaches to the
 * one lead whose phone called within this many hours after the lead arrived.
 */
const callsConfig = {
  matchWindowHours: 72,
  /** Caller numbers without a country code are read in this country. */
  defaultCountry: 'US',
}

export default callsConfig
