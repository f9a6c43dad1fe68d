import { hash as digest } from 'node:crypto'
import { EMPTY_ROOT, type Hex } from '#services/audit/merkle_tree'

/**
 * `Frontier`'s arithmetic for a caller that appends millions of leaves and
 * wants only roots (whole-log verification). Hashes stay raw, as the
 * one-byte strings Node's one-shot hash answers for 'latin1' (as cheap to
 * get as hex): a node's input is then two plain copies rather than two hex
 * decodings. The leaf bytes are written by the caller straight into
 * `leafInput`, so a leaf costs no string at all. Roots come out as hex.
 */
export class RawFrontier {
  /** sha256(0x00 ‖ leaf): the caller writes the leaf's 32 bytes at [1, 33), then calls `appendLeaf`. */
  readonly leafInput = Buffer.alloc(33)
  // Buffer's own latin1Write (untyped in @types/node): `write` would parse its arguments each time.
  #nodeInput = Buffer.alloc(65) as Buffer & { latin1Write(text: string, offset: number): number }
  /** The complete subtree of 2^level leaves for each set bit of the size (a binary counter). */
  #subtrees: string[] = []
  #size = 0

  constructor() {
    this.#nodeInput[0] = 0x01
  }

  get size() {
    return this.#size
  }

  appendLeaf() {
    this.appendLeafHash(digest('sha256', this.leafInput, 'latin1'))
  }

  /** Appends a leaf already hashed (a stand-in, say), as `rawHash` gives it. */
  appendLeafHash(leaf: string) {
    let hash = leaf
    let level = 0
    // Carrying: each low set bit of the size is a subtree the new one completes.
    for (let size = this.#size; size % 2 === 1; size = (size - 1) / 2) {
      hash = this.#node(this.#subtrees[level], hash)
      level++
    }
    this.#subtrees[level] = hash
    this.#size++
  }

  /** Folded from the smallest subtree up, which RFC 9162 hashes as the rightmost. */
  root(): Hex {
    let root: string | null = null
    for (let size = this.#size, level = 0; size > 0; size = Math.floor(size / 2), level++) {
      if (size % 2 === 1) {
        root = root === null ? this.#subtrees[level] : this.#node(this.#subtrees[level], root)
      }
    }
    return root === null ? EMPTY_ROOT : hexOf(root)
  }

  #node(left: string, right: string) {
    this.#nodeInput.latin1Write(left, 1)
    this.#nodeInput.latin1Write(right, 33)
    return digest('sha256', this.#nodeInput, 'latin1')
  }
}

/** A hex hash as the raw string RawFrontier works with. */
export function rawHash(hex: Hex) {
  return Buffer.from(hex, 'hex').toString('latin1')
}

export function hexOf(raw: string): Hex {
  return Buffer.from(raw, 'latin1').toString('hex')
}
