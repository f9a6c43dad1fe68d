import type pg from 'pg'

/** The backend's messages a COPY out is made of: CopyOutResponse, CopyData, and those it may intersperse. */
const COPY_DATA = 0x64
const SKIPPED = new Set([0x48, 0x53, 0x4e, 0x41])

/**
 * `COPY … TO STDOUT` read whole into one buffer: pg hands a query object
 * with `submit` its connection, and this one reads the COPY messages off
 * the socket itself, copying each row's bytes straight into `storage`
 * (grown when too small). pg-copy-streams, which serves the streamed
 * exports, makes every row a Buffer of its own first; over a million rows
 * that was a tenth of a verification thread's time and most of its garbage.
 * From CopyDone (or any message not part of the COPY, an error say) on, the
 * bytes go back to pg's own parser, which ends the query as usual.
 */
export default class CopyIntoBuffer implements pg.Submittable {
  /** Settles once pg is ready for the next query; then `storage[0, length)` holds the rows. */
  readonly done: Promise<void>
  length = 0
  #resolve!: () => void
  #reject!: (error: Error) => void
  #error: Error | null = null
  #stream: NodeJS.EventEmitter | null = null
  #pgListener: ((chunk: Buffer) => void) | null = null
  #header = Buffer.alloc(5)
  #headerLength = 0
  #code = 0
  #remaining = 0

  constructor(
    private text: string,
    public storage: Buffer
  ) {
    this.done = new Promise((resolve, reject) => {
      this.#resolve = resolve
      this.#reject = reject
    })
  }

  submit(connection: pg.Connection) {
    const listeners = connection.stream.listeners('data')
    if (listeners.length !== 1) throw new Error('pg connection in an unexpected state')
    this.#stream = connection.stream
    this.#pgListener = listeners[0] as (chunk: Buffer) => void
    this.#stream.removeListener('data', this.#pgListener)
    this.#stream.on('data', this.#onData)
    connection.query(this.text)
  }

  #onData = (chunk: Buffer) => {
    let at = 0
    while (at < chunk.length) {
      if (this.#headerLength === 0 && at + 5 <= chunk.length) {
        // A whole header in the chunk, read in place: there is one per row.
        this.#code = chunk[at]
        this.#remaining =
          ((chunk[at + 1] << 24) | (chunk[at + 2] << 16) | (chunk[at + 3] << 8) | chunk[at + 4]) - 4
        this.#headerLength = 5
        at += 5
        if (this.#code !== COPY_DATA && !SKIPPED.has(this.#code)) {
          return this.#handBack(chunk.subarray(at - 5))
        }
      } else if (this.#headerLength < 5) {
        const take = Math.min(5 - this.#headerLength, chunk.length - at)
        chunk.copy(this.#header, this.#headerLength, at, at + take)
        this.#headerLength += take
        at += take
        if (this.#headerLength < 5) return
        this.#code = this.#header[0]
        this.#remaining = this.#header.readInt32BE(1) - 4
        if (this.#code !== COPY_DATA && !SKIPPED.has(this.#code)) {
          return this.#handBack(Buffer.concat([this.#header, chunk.subarray(at)]))
        }
      }
      const take = Math.min(this.#remaining, chunk.length - at)
      if (this.#code === COPY_DATA) this.#append(chunk, at, at + take)
      at += take
      this.#remaining -= take
      if (this.#remaining === 0) this.#headerLength = 0
    }
  }

  #append(chunk: Buffer, from: number, to: number) {
    const needed = this.length + to - from
    if (needed > this.storage.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(2 * this.storage.length, needed))
      this.storage.copy(larger, 0, 0, this.length)
      this.storage = larger
    }
    chunk.copy(this.storage, this.length, from, to)
    this.length = needed
  }

  #handBack(rest: Buffer) {
    const stream = this.#stream!
    stream.removeListener('data', this.#onData)
    stream.on('data', this.#pgListener!)
    this.#stream = null
    if (rest.length > 0) this.#pgListener!(rest)
  }

  handleError(error: Error) {
    this.#error ??= error
    if (this.#stream) this.#handBack(Buffer.alloc(0))
    this.#reject(error)
  }

  handleCommandComplete() {}

  handleReadyForQuery() {
    if (this.#error) this.#reject(this.#error)
    else this.#resolve()
  }
}
