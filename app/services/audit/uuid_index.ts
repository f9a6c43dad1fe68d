/**
 * Dense numbers (0, 1, 2… in order of first sight) for uuids read as the
 * 16 bytes where they lie: an open-addressing table over typed arrays, so
 * that a million leads cost neither a string nor a Map entry each.
 */
export class UuidIndex {
  size = 0
  #words: Int32Array
  #slots: Int32Array
  #vacant = -1

  constructor(expected = 1024) {
    let capacity = 1024
    while (capacity < expected * 2) capacity *= 2
    this.#slots = new Int32Array(capacity)
    this.#words = new Int32Array(wordsFor(capacity))
  }

  /** The number of the uuid at `data[from, from + 16)`, or -1 (then `add` may follow). */
  find(data: Uint8Array, from: number) {
    const w0 = word(data, from)
    const w1 = word(data, from + 4)
    const w2 = word(data, from + 8)
    const w3 = word(data, from + 12)
    const slots = this.#slots
    const words = this.#words
    const mask = slots.length - 1
    for (let slot = mix(w0, w1, w2, w3) & mask; ; slot = (slot + 1) & mask) {
      const taken = slots[slot]
      if (taken === 0) {
        this.#vacant = slot
        return -1
      }
      const at = (taken - 1) * 4
      if (
        words[at] === w0 &&
        words[at + 1] === w1 &&
        words[at + 2] === w2 &&
        words[at + 3] === w3
      ) {
        return taken - 1
      }
    }
  }

  /** Numbers the uuid `find` just failed to find. */
  add(data: Uint8Array, from: number) {
    const number = this.size++
    const at = number * 4
    this.#words[at] = word(data, from)
    this.#words[at + 1] = word(data, from + 4)
    this.#words[at + 2] = word(data, from + 8)
    this.#words[at + 3] = word(data, from + 12)
    this.#slots[this.#vacant] = number + 1
    if (this.size * 2 > this.#slots.length) this.#grow()
    return number
  }

  /** Number n's uuid as Postgres prints it. */
  uuid(number: number) {
    const bytes = Buffer.alloc(16)
    for (let i = 0; i < 4; i++) bytes.writeInt32BE(this.#words[number * 4 + i], i * 4)
    return uuidText(bytes, 0)
  }

  #grow() {
    const slots = new Int32Array(this.#slots.length * 2)
    const words = new Int32Array(wordsFor(slots.length))
    words.set(this.#words.subarray(0, this.size * 4))
    const mask = slots.length - 1
    for (let number = 0; number < this.size; number++) {
      const at = number * 4
      let slot = mix(words[at], words[at + 1], words[at + 2], words[at + 3]) & mask
      while (slots[slot] !== 0) slot = (slot + 1) & mask
      slots[slot] = number + 1
    }
    this.#slots = slots
    this.#words = words
  }
}

/** The 16 bytes at `from` as Postgres prints a uuid: lowercase hex in 8-4-4-4-12. */
export function uuidText(data: Uint8Array, from: number) {
  const hex = Buffer.from(data.buffer, data.byteOffset + from, 16).toString('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** Up to half the slots filled, and room for the one `add` writes before it grows the table. */
function wordsFor(slots: number) {
  return (slots / 2 + 1) * 4
}

function word(data: Uint8Array, at: number) {
  return (data[at] << 24) | (data[at + 1] << 16) | (data[at + 2] << 8) | data[at + 3]
}

/** Every word counts: a uuidv7 begins with a timestamp shared by its neighbours. */
function mix(w0: number, w1: number, w2: number, w3: number) {
  let h = Math.imul(w0 ^ Math.imul(w1, 0x9e3779b1), 0x85ebca6b)
  h ^= Math.imul(w2 ^ Math.imul(w3, 0xc2b2ae35), 0x27d4eb2f)
  h ^= h >>> 15
  h = Math.imul(h, 0x2c1b3c6d)
  return h ^ (h >>> 12)
}
