import webhooksConfig from '#config/webhooks'

/** The benchmarks' webhook receivers listen on the loopback, which the SSRF guard refuses by default. */
export const LOOPBACK = '127.0.0.1/32'

/**
 * Lets this process save and dial endpoints on the loopback, and prints the
 * change: a setting a benchmark changes from `npm start` is in its output.
 */
export function allowLoopbackReceiver(logger: { info(message: string): void }) {
  webhooksConfig.ssrf.allow = [LOOPBACK]
  logger.info(
    `setting changed from npm start: WEBHOOK_ALLOW_PRIVATE=${LOOPBACK} (the receiver is on the loopback)`
  )
}
