// The lead the benchmarks send: bench:routing, and the load generators (bench/*_load.mjs),
// which import it as TypeScript (Node strips the types).

/**
 * A valid lead for the publisher `slug`; `serial` makes its e-mail and phone unique in this
 * process (+31 61 and 7 digits is always a valid Dutch mobile number). `phone` replaces the
 * phone, e.g. with one that fails a quality rule; `age` spreads leads over rules' criteria.
 */
export function benchLeadBody(
  slug: string,
  serial: number,
  options: { phone?: string; age?: number } = {}
) {
  const n = String((process.pid * 7919 + serial) % 10_000_000).padStart(7, '0')
  return {
    publisher: slug,
    contact: {
      name: 'Jan Jansen',
      email: `lead.${process.pid}.${serial}@example.nl`,
      phone: options.phone ?? `+3161${n}`,
      postal_code: '1012 AB',
      country: 'NL',
    },
    provenance: {
      source: 'facebook',
      campaign: 'bench',
      landing_page: 'https://energy.example/offer',
    },
    consent: {
      given: true,
      text: 'I agree that Demo Energy may contact me about my energy contract.',
      timestamp: new Date(Date.now() - 60_000).toISOString(),
      ip: '203.0.113.9',
    },
    attributes: { age: options.age ?? 30 + (serial % 40), homeowner: serial % 2 === 0 },
  }
}
