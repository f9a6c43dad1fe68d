import { hash } from 'node:crypto'
import type { BinaryTuples } from '#services/audit/pg_binary_copy'

/** The entry columns, in this order, as whole-log verification reads them (binary COPY). */
export const ENTRY_COLUMNS =
  'e.id, e.lead_id, e.lead_seq, e.event, e.ts, e.actor, e.status_from, e.status_to, e.prev_hash, e.hash'
export const ENTRY_FIELDS = 10
export const ID = 0
export const LEAD_ID = 1
export const LEAD_SEQ = 2
export const EVENT = 3
export const TS = 4
export const ACTOR = 5
export const STATUS_FROM = 6
export const STATUS_TO = 7
export const PREV_HASH = 8
export const HASH = 9

const ascii = (text: string) => Buffer.from(text, 'latin1')
const STRING = 0
const UUID = 1
const INT4 = 2
const TIMESTAMP = 3
/** The canonical JSON of an entry, members in code-unit order of their keys: what goes before each value, and the value. */
const MEMBERS: Array<{ before: Buffer; field: number; kind: number }> = [
  { before: ascii('leadgate-audit/v1\n{"actor":'), field: ACTOR, kind: STRING },
  { before: ascii(',"event":'), field: EVENT, kind: STRING },
  { before: ascii(',"lead_id":"'), field: LEAD_ID, kind: UUID },
  { before: ascii('","lead_seq":'), field: LEAD_SEQ, kind: INT4 },
  { before: ascii(',"prev_hash":'), field: PREV_HASH, kind: STRING },
  { before: ascii(',"status_from":'), field: STATUS_FROM, kind: STRING },
  { before: ascii(',"status_to":'), field: STATUS_TO, kind: STRING },
  { before: ascii(',"ts":"'), field: TS, kind: TIMESTAMP },
]
const TAIL = ascii('"}')
const NULL = ascii('null')
/** Everything but the five strings: keys, a uuid, an int4, a timestamp (or its fallback). */
const FIXED_ROOM = 256

const HEX = ascii('0123456789abcdef')
const DAY_MS = 86_400_000
/** Postgres counts timestamps in microseconds from 2000-01-01 UTC. */
const PG_EPOCH_MS = 946_684_800_000
/** 0000-01-01 and 9999-12-31 end of day: the years the hashed form has four digits for. */
const FIRST_MS = -62_167_219_200_000
const LAST_MS = 253_402_300_799_999

/**
 * The entry hash of docs/audit.md ("Formats"), sha256("leadgate-audit/v1\n" + RFC 8785 JSON
 * of the entry), computed from a row of Postgres' binary COPY format
 * without turning its fields into JavaScript strings: the canonical bytes
 * are written straight into one reused buffer. RFC 8785 writes a string as
 * JSON.stringify does, which leaves every byte of UTF-8 as it is but `"`,
 * `\` and controls; a value holding one of those goes through
 * JSON.stringify itself. The timestamp is written in `formatTs`' form,
 * milliseconds cut (not rounded) as Postgres prints them. Tests hold this
 * to `entryHash` and the `canonicalize` library.
 */
export class EntryHasher {
  #out = Buffer.alloc(1024)
  #outView = new DataView(this.#out.buffer, this.#out.byteOffset, this.#out.byteLength)
  #source: Buffer = Buffer.alloc(0)
  #sourceView: DataView = new DataView(new ArrayBuffer(0))
  /** `#out`'s first n bytes for each n seen: a view per entry would be garbage per entry. */
  #views: Buffer[] = []
  #day = Number.NaN
  #date = Buffer.alloc(10)

  /** The entry hash of the row `rows` is on (columns as ENTRY_COLUMNS), raw: 32 one-byte chars. */
  hash(rows: BinaryTuples) {
    const { data, start, length } = rows
    this.#reserve(
      FIXED_ROOM +
        6 * (length[EVENT] + length[ACTOR] + length[STATUS_TO] + length[PREV_HASH]) +
        6 * Math.max(0, length[STATUS_FROM])
    )
    const out = this.#out
    let at = 0
    for (const { before, field, kind } of MEMBERS) {
      at = put(out, at, before)
      if (kind === STRING) at = this.#string(data, start[field], length[field], at)
      else if (kind === UUID) at = this.#uuid(data, start[field], length[field], at)
      else if (kind === INT4) at = this.#int4(rows.int4(field), at)
      else at = this.#timestamp(data, start[field], length[field], at)
    }
    at = put(out, at, TAIL)
    const view = (this.#views[at] ??= out.subarray(0, at))
    return hash('sha256', view, 'latin1')
  }

  #reserve(bytes: number) {
    if (this.#out.length >= bytes) return
    this.#out = Buffer.alloc(bytes * 2)
    this.#outView = new DataView(this.#out.buffer, this.#out.byteOffset, this.#out.byteLength)
    this.#views = []
  }

  /** A JSON string (or null), copied as it is unless it holds something to escape. */
  #string(data: Buffer, from: number, length: number, at: number) {
    const out = this.#out
    if (length < 0) return put(out, at, NULL)
    out[at] = 0x22
    let to = at + 1
    let i = from
    const end = from + length
    // Four bytes at a time: the per-byte loop was most of building the canonical form.
    const source = this.#view(data)
    const target = this.#outView
    for (; i + 4 <= end; i += 4, to += 4) {
      const word = source.getInt32(i)
      if (needsEscape(word)) return this.#escaped(data, from, end, at)
      target.setInt32(to, word)
    }
    for (; i < end; i++) {
      const byte = data[i]
      if (byte < 0x20 || byte === 0x22 || byte === 0x5c) return this.#escaped(data, from, end, at)
      out[to++] = byte
    }
    out[to] = 0x22
    return to + 1
  }

  #escaped(data: Buffer, from: number, end: number, at: number) {
    return at + this.#out.write(JSON.stringify(data.toString('utf8', from, end)), at, 'utf8')
  }

  #view(data: Buffer) {
    if (data !== this.#source) {
      this.#source = data
      this.#sourceView = new DataView(data.buffer, data.byteOffset, data.byteLength)
    }
    return this.#sourceView
  }

  /** A uuid as Postgres prints it: lowercase hex in 8-4-4-4-12. */
  #uuid(data: Buffer, from: number, length: number, at: number) {
    if (length !== 16) throw new Error(`a uuid of ${length} bytes`)
    const out = this.#out
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) out[at++] = 0x2d
      const byte = data[from + i]
      out[at++] = HEX[byte >> 4]
      out[at++] = HEX[byte & 15]
    }
    return at
  }

  #int4(value: number, at: number) {
    if (value < 0) return at + this.#out.write(String(value), at, 'latin1')
    let digits = 1
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++
    const out = this.#out
    for (let i = at + digits - 1, rest = value; i >= at; i--, rest = Math.floor(rest / 10)) {
      out[i] = 0x30 + (rest % 10)
    }
    return at + digits
  }

  /** YYYY-MM-DDTHH:MM:SS.mmmZ, the date written once per day seen. */
  #timestamp(data: Buffer, from: number, length: number, at: number) {
    if (length !== 8) throw new Error(`a timestamp of ${length} bytes`)
    const high =
      (data[from] << 24) | (data[from + 1] << 16) | (data[from + 2] << 8) | data[from + 3]
    const low =
      (data[from + 4] << 24) | (data[from + 5] << 16) | (data[from + 6] << 8) | data[from + 7]
    const micros = high * 0x1_0000_0000 + (low >>> 0)
    // Floor division without `%` on doubles (slow), corrected in case the quotient rounded up.
    let ms = Math.floor(micros / 1000)
    if (ms * 1000 > micros) ms--
    ms += PG_EPOCH_MS
    // Beyond 2^53 µs (year 2285) the sum above is no longer exact.
    if (high >= 0x20_0000 || high < -0x20_0000 || ms < FIRST_MS || ms > LAST_MS) {
      return at + this.#out.write(outlyingTs(data.readBigInt64BE(from)), at, 'latin1')
    }
    const day = Math.floor(ms / DAY_MS)
    if (day !== this.#day) this.#setDay(day)
    const out = this.#out
    put(out, at, this.#date)
    out[at + 10] = 0x54
    // Under 2^27: small-integer arithmetic from here.
    const time = (ms - day * DAY_MS) | 0
    const milli = time % 1000
    const seconds = ((time - milli) / 1000) | 0
    const second = seconds % 60
    const minutes = ((seconds - second) / 60) | 0
    const minute = minutes % 60
    const hour = ((minutes - minute) / 60) | 0
    two(out, at + 11, hour)
    out[at + 13] = 0x3a
    two(out, at + 14, minute)
    out[at + 16] = 0x3a
    two(out, at + 17, second)
    out[at + 19] = 0x2e
    out[at + 20] = 0x30 + ((milli / 100) | 0)
    two(out, at + 21, milli % 100)
    out[at + 23] = 0x5a
    return at + 24
  }

  /** Days from 1970-01-01 to a civil date (H. Hinnant's algorithm), as YYYY-MM-DD. */
  #setDay(day: number) {
    const z = day + 719_468
    const era = Math.floor(z / 146_097)
    const doe = z - era * 146_097
    const yoe = Math.floor(
      (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365
    )
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
    const mp = Math.floor((5 * doy + 2) / 153)
    const dayOfMonth = doy - Math.floor((153 * mp + 2) / 5) + 1
    const month = mp < 10 ? mp + 3 : mp - 9
    const year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    const date = this.#date
    two(date, 0, Math.floor(year / 100))
    two(date, 2, year % 100)
    date[4] = 0x2d
    two(date, 5, month)
    date[7] = 0x2d
    two(date, 8, dayOfMonth)
    this.#day = day
  }
}

function put(out: Buffer, at: number, bytes: Buffer) {
  const length = bytes.length
  let i = 0
  // Unrolled by four: keys are a third of the bytes of every entry.
  for (; i + 4 <= length; i += 4) {
    out[at + i] = bytes[i]
    out[at + i + 1] = bytes[i + 1]
    out[at + i + 2] = bytes[i + 2]
    out[at + i + 3] = bytes[i + 3]
  }
  for (; i < length; i++) out[at + i] = bytes[i]
  return at + length
}

/**
 * Whether any byte of a 4-byte word is a control (below 0x20), `"` or `\`
 * (bit-twiddling hacks' hasless and haszero; exact, and blind to the bytes
 * of multi-byte UTF-8, which are all 0x80 and above).
 */
function needsEscape(word: number) {
  const controls = (word - 0x20202020) & ~word & 0x80808080
  const quote = word ^ 0x22222222
  const quotes = (quote - 0x01010101) & ~quote & 0x80808080
  const backslash = word ^ 0x5c5c5c5c
  const backslashes = (backslash - 0x01010101) & ~backslash & 0x80808080
  return (controls | quotes | backslashes) !== 0
}

function two(out: Buffer, at: number, value: number) {
  out[at] = 0x30 + ((value / 10) | 0)
  out[at + 1] = 0x30 + (value % 10)
}

/**
 * A timestamp outside years 0000–9999: as `formatTs` writes it where a Date
 * can hold it, else as Postgres names it. No entry the application wrote has it.
 */
function outlyingTs(micros: bigint) {
  const ms = Number(micros / 1000n - (micros % 1000n < 0n ? 1n : 0n)) + PG_EPOCH_MS
  const date = new Date(ms)
  if (!Number.isNaN(date.getTime())) return date.toISOString()
  return micros > 0n ? 'infinity' : '-infinity'
}
