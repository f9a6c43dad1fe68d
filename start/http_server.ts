import { createServer, type RequestListener } from 'node:http'
import { answerClientError } from '#exceptions/bare_problem'

/**
 * The Node HTTP server AdonisJS serves on (bin/server.ts, and the test
 * server in tests/bootstrap.ts): what its parser refuses is answered as a
 * problem document like every other error.
 */
export function createHttpServer(handler: RequestListener) {
  const server = createServer(handler)
  server.on('clientError', answerClientError)
  return server
}
