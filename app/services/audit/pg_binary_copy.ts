import type pg from 'pg'
import CopyIntoBuffer from '#services/audit/pg_copy_into_buffer'
import { uuidText } from '#services/audit/uuid_index'

/** Lowercase hex digits' values; -1 (all bits set) for anything else. */
const NIBBLE = new Int8Array(256).fill(-1)
for (let i = 0; i < 16; i++) NIBBLE['0123456789abcdef'.charCodeAt(i)] = i

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')

/**
 * The rows of a `COPY … (FORMAT binary)` read whole, walked one tuple at a
 * time without turning a field into a JavaScript value: `start[i]` and
 * `length[i]` say where field i of the current tuple lies in `data`
 * (length -1 for NULL). Reading the columns' bytes where they are is what
 * makes a million rows cheap; each reader decodes only what it needs.
 */
export class BinaryTuples {
  readonly start: Int32Array
  readonly length: Int32Array
  /** Where the current tuple begins: `seek` returns to it. */
  at = -1
  #first: number
  #next: number

  private constructor(
    readonly data: Buffer,
    readonly fields: number,
    /** The whole buffer `data` lies in, to hand to `read` again once these tuples are done with. */
    readonly storage: Buffer
  ) {
    if (data.length < 19 || !data.subarray(0, 11).equals(SIGNATURE)) {
      throw new Error('not a binary COPY stream')
    }
    this.start = new Int32Array(fields)
    this.length = new Int32Array(fields)
    this.#first = 19 + data.readInt32BE(15)
    this.#next = this.#first
  }

  /**
   * The whole output of `COPY (query) TO STDOUT WITH (FORMAT binary)`, rows
   * of `fields` columns, read into `storage` when given: reusing the storage
   * of tuples done with spares a megabytes-large allocation per read, which
   * V8 answers with collections of the whole heap.
   */
  static async read(client: pg.Client, query: string, fields: number, storage?: Buffer) {
    const copy = new CopyIntoBuffer(
      `COPY (${query}) TO STDOUT WITH (FORMAT binary)`,
      storage ?? Buffer.allocUnsafeSlow(1 << 16)
    )
    client.query(copy)
    await copy.done
    return new BinaryTuples(copy.storage.subarray(0, copy.length), fields, copy.storage)
  }

  /** How many tuples there are; the next `next` is the first again. */
  count() {
    this.#next = this.#first
    let count = 0
    while (this.next()) count++
    this.#next = this.#first
    return count
  }

  /** Moves to the next tuple in the stream; false after the last. */
  next() {
    return this.seek(this.#next)
  }

  /** Moves to the tuple that begins at `offset` (an earlier `at`). */
  seek(offset: number) {
    const data = this.data
    const count = (data[offset] << 8) | data[offset + 1]
    if (count === 0xffff) return false
    if (count !== this.fields)
      throw new Error(`a COPY tuple of ${count} fields, not ${this.fields}`)
    this.at = offset
    let at = offset + 2
    for (let i = 0; i < count; i++) {
      // Read inline: this runs once per field of a million rows.
      const length = (data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3]
      at += 4
      this.start[i] = at
      this.length[i] = length
      if (length > 0) at += length
    }
    if (at > data.length) throw new Error('a COPY tuple cut short')
    this.#next = at
    return true
  }

  /** Where a field of exactly `length` bytes begins (a uuid's 16, say). */
  fixed(field: number, length: number) {
    this.#expect(field, length)
    return this.start[field]
  }

  /** An int8 field that must be a safe integer (ids, log indexes). */
  int8(field: number) {
    this.#expect(field, 8)
    const at = this.start[field]
    const high = this.data.readInt32BE(at)
    if (high >= 0x20_0000 || high < -0x20_0000) throw new Error(`field ${field} is beyond 2^53`)
    return high * 0x1_0000_0000 + this.data.readUInt32BE(at + 4)
  }

  /** An int4 field. */
  int4(field: number) {
    this.#expect(field, 4)
    return this.data.readInt32BE(this.start[field])
  }

  /** A uuid field as Postgres prints it. */
  uuid(field: number) {
    this.#expect(field, 16)
    return uuidText(this.data, this.start[field])
  }

  /** A text field as a string; null for NULL. */
  text(field: number) {
    const length = this.length[field]
    if (length < 0) return null
    return this.data.toString('utf8', this.start[field], this.start[field] + length)
  }

  /**
   * A text field of exactly 64 lowercase hex digits (a hash as stored),
   * written as its 32 bytes at `into[at]`; false for any other text.
   */
  lowerHex(field: number, into: Uint8Array, at: number) {
    if (this.length[field] !== 64) return false
    const data = this.data
    const from = this.start[field]
    let bad = 0
    for (let i = 0; i < 32; i++) {
      const high = NIBBLE[data[from + 2 * i]]
      const low = NIBBLE[data[from + 2 * i + 1]]
      bad |= high | low
      into[at + i] = (high << 4) | low
    }
    return bad >= 0
  }

  #expect(field: number, length: number) {
    if (this.length[field] !== length) {
      throw new Error(`field ${field} has ${this.length[field]} bytes, not ${length}`)
    }
  }
}
