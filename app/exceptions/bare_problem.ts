import type { ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'

/** The `type` URI of a problem code, as every problem document of the API carries it. */
export function problemType(code: string) {
  return `https://leadgate.dev/problems/${code.replaceAll('_', '-')}`
}

type Problem = { status: number; code: string; title: string; detail: string }

function documentOf(problem: Problem) {
  return JSON.stringify({ type: problemType(problem.code), ...problem })
}

/**
 * For what is refused before AdonisJS has a request (the exception handler
 * renders everything after): a URL that is not valid UTF-8 once decoded, and
 * what Node's HTTP parser refuses itself (oversized headers, malformed HTTP).
 */
export function writeBareProblem(response: ServerResponse, problem: Problem) {
  response.writeHead(problem.status, { 'Content-Type': 'application/problem+json; charset=utf-8' })
  response.end(documentOf(problem))
}

const PARSER_PROBLEMS: Record<string, Problem> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'headers_too_large',
    title: 'Request header fields too large',
    detail: 'The request headers are larger than this server accepts (16 KB).',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'request_timeout',
    title: 'Request timeout',
    detail: 'The request was not received in time.',
  },
}
const MALFORMED: Problem = {
  status: 400,
  code: 'malformed_request',
  title: 'Bad request',
  detail: 'The request is not valid HTTP/1.1.',
}

/** Node's `clientError`: answered as a problem document instead of Node's empty one. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex) {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const problem = PARSER_PROBLEMS[error.code ?? ''] ?? MALFORMED
  const body = documentOf(problem)
  socket.end(
    `HTTP/1.1 ${problem.status} ${problem.title}\r\n` +
      'Content-Type: application/problem+json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body
  )
}
