import ApiProblem from '#exceptions/api_problem'
import moneyConfig from '#config/money'
import { type ReceivedFile, fileTooLarge, tooManyFiles } from '#services/money/dispute_files'

/** The answer's manifest, before its files: the text, and each file's name, type and size. */
type Manifest = { text?: unknown; files?: unknown }

/** A manifest carries the text (5,000 characters) and a few names: 64 KB is plenty. */
const MAX_MANIFEST_BYTES = 64 * 1024

function malformed() {
  return ApiProblem.badRequest(
    'malformed_answer',
    'Send the answer as the dispute page does: a JSON line with the text and the files, then the files.'
  )
}

/** The files the manifest announces, refused as the API refuses them before any is read. */
function announcedFiles(manifest: Manifest) {
  const { maxFiles, maxFileBytes } = moneyConfig.disputes
  if (!Array.isArray(manifest.files)) throw malformed()
  if (manifest.files.length > maxFiles) throw tooManyFiles()
  return manifest.files.map((file: unknown, index) => {
    const { name, type, size } = (file ?? {}) as Record<string, unknown>
    if (typeof name !== 'string' || !Number.isSafeInteger(size)) throw malformed()
    if ((size as number) > maxFileBytes) throw fileTooLarge(name)
    if ((size as number) < 1) {
      throw ApiProblem.unprocessable([
        { field: `attachments.${index}`, code: 'empty_file', message: 'The file is empty.' },
      ])
    }
    return { name, type: typeof type === 'string' ? type : null, size: size as number }
  })
}

/**
 * Reads a publisher's answer as the portal's dispute page sends it (one
 * `application/octet-stream` body: a portal route takes no multipart one), with the limits of
 * the API's multipart answer, as it streams in: one line of JSON (`{text, files: [{name, type,
 * size}]}`), then each file's bytes, back to back, exactly as many as announced. What the
 * manifest announces is refused before a file is read (too many, too large, empty); a body
 * longer or shorter than announced is malformed.
 */
export async function readDisputeAnswer(body: AsyncIterable<Buffer>) {
  const head: Buffer[] = []
  let headBytes = 0
  let manifest: Manifest | null = null
  let announced: ReturnType<typeof announcedFiles> = []
  const files: ReceivedFile[] = []
  let pieces: Buffer[] = []
  let got = 0
  const take = (chunk: Buffer) => {
    let rest = chunk
    while (rest.length > 0) {
      const file = announced[files.length]
      if (!file) throw malformed()
      const piece = rest.subarray(0, file.size - got)
      pieces.push(piece)
      got += piece.length
      rest = rest.subarray(piece.length)
      if (got === file.size) {
        files.push({ filename: file.name, declaredType: file.type, content: Buffer.concat(pieces) })
        pieces = []
        got = 0
      }
    }
  }
  for await (const chunk of body) {
    if (manifest) {
      take(chunk)
      continue
    }
    const end = chunk.indexOf(10)
    headBytes += end === -1 ? chunk.length : end
    if (headBytes > MAX_MANIFEST_BYTES) throw malformed()
    if (end === -1) {
      head.push(chunk)
      continue
    }
    head.push(chunk.subarray(0, end))
    try {
      manifest = JSON.parse(Buffer.concat(head).toString('utf8')) as Manifest
    } catch {
      throw malformed()
    }
    if (manifest === null || typeof manifest !== 'object') throw malformed()
    announced = announcedFiles(manifest)
    take(chunk.subarray(end + 1))
  }
  if (!manifest || files.length !== announced.length) throw malformed()
  return { text: manifest.text, files }
}
