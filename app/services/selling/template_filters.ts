import { type FilterImplOptions, filters as liquidFilters } from 'liquidjs'
import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js'

/**
 * The filters a buyer's template adds to Liquid's own (docs/selling.md,
 * "Filters"). Each gives a value back unchanged when it cannot read it, so a
 * lead with an odd field still posts and the buyer's answer says why.
 */

type Handler = Extract<FilterImplOptions, (...args: any[]) => any>
/** What Liquid binds `this` to in a filter: the render's context. */
type Impl = ThisParameterType<Handler>
/** Liquid's own filter, to fall back on. */
export const liquidFilter = (name: keyof typeof liquidFilters) => liquidFilters[name] as Handler

function countryOf(impl: Impl, given: unknown) {
  const country = given ?? impl.context.getSync(['contact', 'country'])
  return typeof country === 'string' ? (country.toUpperCase() as CountryCode) : undefined
}

function phone(format: 'E.164' | 'NATIONAL') {
  return function (this: Impl, value: unknown, country?: unknown) {
    if (value === null || value === undefined || value === '') return value
    const parsed = parsePhoneNumberFromString(String(value), countryOf(this, country))
    return parsed?.isPossible() ? parsed.format(format) : value
  }
}

/** `Jane Q. Example` → `Jane` and `Q. Example`: the first word, and the rest. */
function nameParts(value: unknown) {
  const words = String(value ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
  return { first: words[0] ?? '', last: words.slice(1).join(' ') }
}

/** Readable names for the formats buyers ask for; anything else is strftime (`%d.%m.%Y`). UTC. */
const DATE_FORMATS: Record<string, string> = {
  'iso': '%Y-%m-%dT%H:%M:%SZ',
  'YYYY-MM-DD': '%Y-%m-%d',
  'DD/MM/YYYY': '%d/%m/%Y',
  'MM/DD/YYYY': '%m/%d/%Y',
  'us': '%m/%d/%Y',
  'unix': '%s',
}

function date(this: Impl, value: unknown, format?: unknown) {
  const strftime = typeof format === 'string' ? (DATE_FORMATS[format] ?? format) : format
  return liquidFilter('date').call(this, value, strftime)
}

const parsedMaps = new Map<string, Map<string, string>>()

/** `"solar:SOL,heat_pump:HP"` as a lookup; parsed once per distinct map. */
function valueMap(pairs: string) {
  let map = parsedMaps.get(pairs)
  if (!map) {
    map = new Map(
      pairs.split(',').map((pair) => {
        const at = pair.indexOf(':')
        return at < 0 ? [pair.trim(), ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()]
      })
    )
    if (parsedMaps.size >= 1000) parsedMaps.clear()
    parsedMaps.set(pairs, map)
  }
  return map
}

/**
 * A value map over one value (`{{ attributes.product | map: "solar:SOL,heat_pump:HP", "OTHER" }}`:
 * an unlisted value gives the second argument, or itself). Over a list it
 * stays Liquid's own `map` (`{{ items | map: "name" }}`).
 */
function valueMapFilter(this: Impl, value: unknown, pairs: unknown, fallback?: unknown) {
  if (Array.isArray(value)) return liquidFilter('map').call(this, value, pairs)
  if (value === null || value === undefined || typeof pairs !== 'string') return fallback ?? value
  const mapped = valueMap(pairs).get(String(value))
  return mapped ?? fallback ?? value
}

export const LEAD_FILTERS: Record<string, FilterImplOptions> = {
  e164: phone('E.164'),
  national: phone('NATIONAL'),
  first_name: (value: unknown) => nameParts(value).first,
  last_name: (value: unknown) => nameParts(value).last,
  date,
  map: valueMapFilter,
}
