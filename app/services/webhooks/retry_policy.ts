export type RetryConfig = {
  retrySchedule: number[]
  jitter: number
  minDelayAfterThrottleMs: number
  retryAfterCapMs: number
}

export type SendResult = {
  ok: boolean
  statusCode: number | null
  timedOut: boolean
  retryAfterMs: number | null
}

export type Decision =
  | { kind: 'succeeded' }
  | { kind: 'gone' }
  | { kind: 'exhausted' }
  | { kind: 'retry'; delayMs: number }

/**
 * What follows an attempt. `attemptsInRun` counts the attempts of the
 * current run of the schedule, this one included: after attempt n the next
 * waits `schedule[n]`, spread by the jitter, at least a minute after a
 * timeout or 429, and at least what `Retry-After` asked (capped).
 */
export function decide(
  result: SendResult,
  attemptsInRun: number,
  config: RetryConfig,
  random = Math.random
): Decision {
  if (result.ok) return { kind: 'succeeded' }
  if (result.statusCode === 410) return { kind: 'gone' }
  if (attemptsInRun >= config.retrySchedule.length) return { kind: 'exhausted' }

  let delayMs = withJitter(config.retrySchedule[attemptsInRun], config.jitter, random)
  if (result.timedOut || result.statusCode === 429)
    delayMs = Math.max(delayMs, config.minDelayAfterThrottleMs)
  if (result.retryAfterMs !== null)
    delayMs = Math.max(delayMs, Math.min(result.retryAfterMs, config.retryAfterCapMs))
  return { kind: 'retry', delayMs }
}

export function withJitter(delayMs: number, jitter: number, random = Math.random) {
  return Math.round(delayMs * (1 + jitter * (2 * random() - 1)))
}

/** `Retry-After` as delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | null {
  if (!header) return null
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}
