import { Readable } from 'node:stream'
import { createInterface } from 'node:readline'
import { parse } from 'csv-parse'
import ApiProblem from '#exceptions/api_problem'
import uploadsConfig from '#config/uploads'
import { type RawRow, flatten } from '#services/uploads/upload_row_input'

export type UploadFormat = 'csv' | 'jsonl'
export type UploadEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252'

/** Bytes looked at before the encoding and the format are decided. */
const SNIFF_BYTES = 64 * 1024
const DELIMITERS = [',', ';', '\t', '|'] as const

/**
 * Reads an uploaded file as it streams in, never holding more of it than
 * one chunk and one record: decides its encoding (a BOM, UTF-16 by its zero
 * bytes, UTF-8 when the first 64 KiB decode as such, else Windows-1252), its
 * format (by name, else by its first character) and, for CSV, the delimiter
 * of its header line, then yields its rows. Every way a file can be unusable
 * as a whole is an ApiProblem (413 past the size limit, 422 otherwise).
 */
export class UploadReader {
  format: UploadFormat = 'csv'
  encoding: UploadEncoding = 'utf-8'
  delimiter: string | null = null
  /** The header (CSV) or every key seen so far (JSON Lines), in order. */
  columns: string[] = []
  bytes = 0
  rowCount = 0

  constructor(
    private source: AsyncIterable<Buffer>,
    readonly filename: string | null
  ) {}

  async *rows(): AsyncGenerator<RawRow> {
    const text = Readable.from(await this.#open(), { objectMode: false })
    text.setEncoding('utf8')
    const rows = this.format === 'jsonl' ? this.#jsonLines(text) : this.#csv(text)
    for await (const row of rows) {
      if (++this.rowCount > uploadsConfig.maxRows) {
        throw pastLimit(422, 'too_many_rows', 'rows', uploadsConfig.maxRows)
      }
      yield row
    }
    if (this.rowCount === 0) {
      throw ApiProblem.unprocessable(
        [{ field: 'file', code: 'no_rows', message: 'The file holds no rows to upload.' }],
        'The file is empty.'
      )
    }
  }

  /**
   * Reads the first bytes, decides the encoding and the format on them,
   * and answers the whole file as text, decoded chunk by chunk.
   */
  async #open() {
    const iterator = this.source[Symbol.asyncIterator]()
    const head: Buffer[] = []
    let headBytes = 0
    let done = false
    while (headBytes < SNIFF_BYTES) {
      const next = await iterator.next()
      if (next.done) {
        done = true
        break
      }
      head.push(this.#counted(next.value))
      headBytes += next.value.length
    }
    const sample = Buffer.concat(head)
    this.encoding = detectEncoding(sample, done)
    this.format = detectFormat(this.filename, sample, this.encoding)
    // Only UTF-8 can be wrong: every byte means something in Windows-1252.
    const decoder = new TextDecoder(this.encoding, { fatal: this.encoding === 'utf-8' })
    const decode = (bytes: Buffer, stream: boolean) => {
      try {
        return decoder.decode(bytes, { stream })
      } catch {
        throw ApiProblem.unprocessable(
          [
            {
              field: 'file',
              code: 'invalid_encoding',
              message: `The file began as UTF-8 but holds bytes that are not UTF-8 after about ${this.bytes} bytes: save it as UTF-8 (or Windows-1252 throughout).`,
            },
          ],
          'The file mixes encodings.'
        )
      }
    }
    const counted = (chunk: Buffer) => this.#counted(chunk)
    return (async function* () {
      if (sample.length > 0) yield decode(sample, true)
      while (!done) {
        const next = await iterator.next()
        if (next.done) break
        yield decode(counted(next.value), true)
      }
      const rest = decode(Buffer.alloc(0), false)
      if (rest) yield rest
    })()
  }

  #counted(chunk: Buffer) {
    this.bytes += chunk.length
    if (this.bytes > uploadsConfig.maxBytes) {
      throw pastLimit(413, 'upload_too_large', 'bytes', uploadsConfig.maxBytes)
    }
    return chunk
  }

  async *#csv(text: Readable): AsyncGenerator<RawRow> {
    const parser = parse({
      // Decided on the header line, once the first text has arrived (see delimiterOf).
      delimiter: await this.#headerDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      max_record_size: uploadsConfig.maxRecordChars,
    })
    text.pipe(parser)
    text.on('error', (error) => parser.destroy(error))
    let header = true
    try {
      for await (const record of parser as AsyncIterable<string[]>) {
        const cells = record.map(readable)
        if (header) {
          this.columns = headerOf(cells)
          header = false
          continue
        }
        yield cells
      }
    } catch (error) {
      if (error instanceof ApiProblem) throw error
      const { code, message } = error as { code?: string; message?: string }
      if (!code?.startsWith('CSV_')) throw error
      throw ApiProblem.unprocessable(
        [{ field: 'file', code: 'malformed_csv', message: message ?? 'The CSV cannot be read.' }],
        'The file is not readable as CSV.'
      )
    }
  }

  /** Peeks at the text up to the end of the header line and puts it back. */
  async #headerDelimiter(text: Readable) {
    let seen = ''
    for await (const chunk of text.iterator({ destroyOnReturn: false })) {
      seen += chunk
      if (seen.includes('\n') || seen.length > uploadsConfig.maxRecordChars) break
    }
    text.unshift(seen)
    this.delimiter = delimiterOf(seen.split('\n', 1)[0])
    return this.delimiter
  }

  async *#jsonLines(text: Readable): AsyncGenerator<RawRow> {
    const lines = createInterface({ input: text, crlfDelay: Infinity })
    const known = new Set<string>()
    for await (const line of lines) {
      if (line.trim() === '') continue
      if (line.length > uploadsConfig.maxRecordChars) {
        throw ApiProblem.unprocessable([
          {
            field: 'file',
            code: 'malformed_jsonl',
            message: `A line is longer than ${uploadsConfig.maxRecordChars} characters.`,
          },
        ])
      }
      const row = jsonRow(line)
      if (typeof row === 'string') {
        yield row
        continue
      }
      for (const key of Object.keys(flatten(row))) {
        if (known.has(key)) continue
        known.add(key)
        this.columns.push(key)
        if (this.columns.length > uploadsConfig.maxColumns) tooManyColumns()
      }
      yield row
    }
  }
}

/** A file past one of the configured limits (config/uploads.ts); `limit` says which number. */
function pastLimit(status: 413 | 422, code: string, unit: string, limit: number) {
  const title = status === 413 ? 'Payload too large' : 'Too many rows'
  const detail = `An upload holds at most ${limit} ${unit}; split the file.`
  return new ApiProblem(status, code, title, detail, { limit })
}

/** A JSON line as an object, or, when it is none, its text (the row is then malformed). */
function jsonRow(line: string): Record<string, unknown> | string {
  try {
    const value = JSON.parse(line)
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      return sanitised(value) as Record<string, unknown>
    }
  } catch {}
  return readable(line.slice(0, 1000))
}

function tooManyColumns(): never {
  throw ApiProblem.unprocessable([
    {
      field: 'file',
      code: 'too_many_columns',
      message: `An upload has at most ${uploadsConfig.maxColumns} columns.`,
    },
  ])
}

/**
 * The header's cells as column names: trimmed, an empty one named by its
 * place; two columns of one name would make `mapping` ambiguous.
 */
function headerOf(cells: string[]) {
  if (cells.length > uploadsConfig.maxColumns) tooManyColumns()
  const columns = cells.map((cell, index) => cell.trim() || `column_${index + 1}`)
  const seen = new Set<string>()
  for (const column of columns) {
    if (seen.has(column)) {
      throw ApiProblem.unprocessable([
        {
          field: 'file',
          code: 'duplicate_column',
          message: `The header names the column "${column}" twice; give each column its own name.`,
        },
      ])
    }
    seen.add(column)
  }
  return columns
}

/** Text Postgres can store: no NUL character, no lone surrogate (both become U+FFFD, which validation reports). */
function readable(text: string) {
  const wellFormed = text.isWellFormed() ? text : text.toWellFormed()
  return wellFormed.includes('\u0000') ? wellFormed.replaceAll('\u0000', '\uFFFD') : wellFormed
}

function sanitised(value: unknown): unknown {
  if (typeof value === 'string') return readable(value)
  if (Array.isArray(value)) return value.map(sanitised)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [readable(key), sanitised(item)])
    )
  }
  return value
}

/** `complete`: the sample is the whole file, so a character cut at its end is an error. */
export function detectEncoding(sample: Buffer, complete = false): UploadEncoding {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return 'utf-8'
  if (sample[0] === 0xff && sample[1] === 0xfe) return 'utf-16le'
  if (sample[0] === 0xfe && sample[1] === 0xff) return 'utf-16be'
  // UTF-16 without a BOM: text in Latin letters has a zero byte beside every character.
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i < Math.min(sample.length, 4096); i++) {
    if (sample[i] === 0) i % 2 === 0 ? evenZeros++ : oddZeros++
  }
  const pairs = Math.min(sample.length, 4096) / 2
  if (oddZeros > pairs / 2) return 'utf-16le'
  if (evenZeros > pairs / 2) return 'utf-16be'
  try {
    // `stream` leaves a character cut at the end of the sample for later instead of failing on it.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: !complete })
    return 'utf-8'
  } catch {
    return 'windows-1252'
  }
}

function detectFormat(filename: string | null, sample: Buffer, encoding: UploadEncoding) {
  const extension = filename?.toLowerCase().split('.').pop()
  if (extension === 'jsonl' || extension === 'ndjson') return 'jsonl'
  if (extension === 'csv' || extension === 'tsv' || extension === 'txt') return 'csv'
  const start = new TextDecoder(encoding).decode(sample.subarray(0, 256)).trimStart()
  return start.startsWith('{') ? 'jsonl' : 'csv'
}

/** The candidate that occurs most often in the header line; a comma when none does. */
export function delimiterOf(headerLine: string) {
  let best: string = ','
  let most = 0
  for (const candidate of DELIMITERS) {
    const count = headerLine.split(candidate).length - 1
    if (count > most) {
      best = candidate
      most = count
    }
  }
  return best
}
