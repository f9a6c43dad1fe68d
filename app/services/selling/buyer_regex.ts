import { RE2JS } from 're2js'
import { LIMITS } from '#services/selling/http_destination'

/**
 * A buyer's regular expressions run on RE2's linear-time engine (re2js, the
 * JavaScript port of RE2): no pattern can backtrack, so no answer can hold
 * the event loop. RE2 syntax: `(?i)` for case-insensitive, no lookaround
 * and no backreferences (docs/selling.md).
 */
const compiled = new Map<string, RE2JS>()

export function buyerRegex(pattern: string): RE2JS {
  let regex = compiled.get(pattern)
  if (!regex) {
    regex = RE2JS.compile(pattern)
    if (compiled.size >= 1000) compiled.clear()
    compiled.set(pattern, regex)
  }
  return regex
}

/** Whether the pattern occurs in `input` (its first `regexInputChars` characters). */
export function regexFinds(pattern: string, input: string) {
  return buyerRegex(pattern).test(input.slice(0, LIMITS.regexInputChars))
}

/** Why the pattern cannot be used, in words, or null. */
export function regexProblem(pattern: string): string | null {
  if (pattern.length > LIMITS.patternChars) {
    return `Use a regular expression of at most ${LIMITS.patternChars} characters.`
  }
  try {
    buyerRegex(pattern)
    return null
  } catch (error) {
    const detail = (error as { getDescription?: () => string }).getDescription?.()
    return `The regular expression does not compile (RE2 syntax): ${detail ?? (error as Error).message}.`
  }
}
