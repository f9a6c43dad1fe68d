import { hash as digest } from 'node:crypto'

/**
 * RFC 9162 §2.1 Merkle tree arithmetic over lowercase hex hashes. Hex rather
 * than Buffers because hashes travel as hex everywhere (API, exports, the
 * entries table) and Node's one-shot hash answers hex about three times
 * faster than it allocates a Buffer, which is what whole-log verification
 * spends its time on.
 */
export type Hex = string
/** A complete subtree: the hash of leaves [index * 2^level, (index + 1) * 2^level). */
export type NodeKey = { level: number; index: number }
export type TreeNode = NodeKey & { hash: Hex }
/** Leaves [start, end) of the tree. */
export type Range = [start: number, end: number]

export const EMPTY_ROOT: Hex = digest('sha256', '', 'hex')

const leafInput = Buffer.alloc(33)
const nodeInput = Buffer.alloc(65)
nodeInput[0] = 0x01

/**
 * sha256(0x00 ‖ leaf): `leaf` is the 32-byte entry hash, as hex. Decoding
 * stops at the first character that is not hex (a tampered hash, say); the
 * rest are zeros, never what an earlier call left in the buffer, so the
 * answer depends on `leaf` alone (the verifier reads hashes the same way).
 */
export function leafHash(leaf: Hex): Hex {
  leafInput.fill(0, 1)
  leafInput.write(leaf, 1, 32, 'hex')
  return digest('sha256', leafInput, 'hex')
}

/** The leaf hash of arbitrary bytes (RFC test vectors have leaves of any length). */
export function leafHashOf(data: Uint8Array): Hex {
  return digest('sha256', Buffer.concat([Buffer.of(0x00), data]), 'hex')
}

/** sha256(0x01 ‖ left ‖ right). */
export function nodeHash(left: Hex, right: Hex): Hex {
  nodeInput.fill(0, 1)
  nodeInput.write(left, 1, 32, 'hex')
  nodeInput.write(right, 33, 32, 'hex')
  return digest('sha256', nodeInput, 'hex')
}

/** The largest power of two smaller than n (n > 1): RFC 9162's split point k. */
export function splitPoint(n: number) {
  let k = 1
  while (k * 2 < n) k *= 2
  return k
}

/**
 * The complete subtrees whose hashes, folded from the right, give the hash
 * of leaves [start, end): one per set bit of the range's size, largest
 * first. Ranges produced by the RFC's recursions are aligned, so each piece
 * is a node of the tree.
 */
export function piecesOf([start, end]: Range): NodeKey[] {
  const pieces: NodeKey[] = []
  let at = start
  for (let level = 52; level >= 0; level--) {
    const width = 2 ** level
    if (end - at >= width) {
      pieces.push({ level, index: at / width })
      at += width
    }
  }
  return pieces
}

export function foldRight(hashes: Hex[]): Hex {
  if (hashes.length === 0) return EMPTY_ROOT
  let root = hashes[hashes.length - 1]
  for (let i = hashes.length - 2; i >= 0; i--) root = nodeHash(hashes[i], root)
  return root
}

/** RFC 9162 §2.1.3.1 PATH(m, D[n]): the ranges whose hashes form the inclusion proof, leaf first. */
export function inclusionRanges(m: number, n: number): Range[] {
  assertIndex(m, n)
  const ranges: Range[] = []
  let [start, end] = [0, n]
  while (end - start > 1) {
    const k = splitPoint(end - start)
    if (m - start < k) {
      ranges.push([start + k, end])
      end = start + k
    } else {
      ranges.push([start, start + k])
      start += k
    }
  }
  return ranges.reverse()
}

/** RFC 9162 §2.1.4.1 PROOF(m, D[n]): the ranges whose hashes form the consistency proof. */
export function consistencyRanges(m: number, n: number): Range[] {
  if (!Number.isSafeInteger(m) || !Number.isSafeInteger(n) || m < 0 || m > n) {
    throw new RangeError(`No consistency proof from ${m} to ${n}`)
  }
  if (m === 0 || m === n) return []
  const ranges: Range[] = []
  let [start, end] = [0, n]
  let size = m
  let complete = true
  // SUBPROOF(m, D[start:end], complete), unrolled; the outer ranges come last.
  while (size !== end - start) {
    const k = splitPoint(end - start)
    if (size <= k) {
      ranges.push([start + k, end])
      end = start + k
    } else {
      ranges.push([start, start + k])
      start += k
      size -= k
      complete = false
    }
  }
  if (!complete) ranges.push([start, end])
  return ranges.reverse()
}

/** Every node the given ranges are made of, once. */
export function nodesFor(ranges: Range[]): NodeKey[] {
  const seen = new Map<string, NodeKey>()
  for (const range of ranges) {
    for (const piece of piecesOf(range)) seen.set(`${piece.level}:${piece.index}`, piece)
  }
  return [...seen.values()]
}

export type NodeLookup = (key: NodeKey) => Hex

export function rangeHash(range: Range, lookup: NodeLookup): Hex {
  return foldRight(piecesOf(range).map(lookup))
}

/**
 * RFC 9162 §2.1.3.2: recomputes the root from a leaf hash and its inclusion
 * proof; true when it lands on `root` with the path used up exactly.
 */
export function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leaf: Hex,
  proof: Hex[],
  root: Hex
) {
  if (leafIndex < 0 || leafIndex >= treeSize) return false
  let fn = leafIndex
  let sn = treeSize - 1
  let r = leaf
  for (const p of proof) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r)
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2)
          sn = Math.floor(sn / 2)
        }
      }
    } else {
      r = nodeHash(r, p)
    }
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  return sn === 0 && r === root
}

/** RFC 9162 §2.1.4.2, with the trivial cases (first = 0, first = second) settled first. */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Hex,
  secondRoot: Hex,
  proof: Hex[]
) {
  if (first < 0 || first > second) return false
  if (first === second) return proof.length === 0 && firstRoot === secondRoot
  if (first === 0) return proof.length === 0
  if (proof.length === 0) return false
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof]
  let fn = first - 1
  let sn = second - 1
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  let fr = path[0]
  let sr = path[0]
  for (const c of path.slice(1)) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr)
      sr = nodeHash(c, sr)
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2)
          sn = Math.floor(sn / 2)
        }
      }
    } else {
      sr = nodeHash(sr, c)
    }
    fn = Math.floor(fn / 2)
    sn = Math.floor(sn / 2)
  }
  return fr === firstRoot && sr === secondRoot && sn === 0
}

/**
 * The right edge of the tree: one complete subtree per set bit of its size.
 * Appending a leaf merges equal-sized subtrees, so it costs O(log n) hashes
 * at worst and one on average. Parallel arrays rather than node objects:
 * whole-log verification appends millions of leaves.
 */
export class Frontier {
  #levels: number[] = []
  #hashes: Hex[] = []
  #size: number

  /** `nodes`: the tree's pieces for `size` (see `frontierKeys`), largest first. */
  constructor(size = 0, nodes: TreeNode[] = []) {
    const expected = frontierKeys(size)
    if (
      nodes.length !== expected.length ||
      nodes.some((node, i) => node.level !== expected[i].level || node.index !== expected[i].index)
    ) {
      throw new Error(`The frontier of a tree of size ${size} is not what was given`)
    }
    this.#size = size
    for (const node of nodes) {
      this.#levels.push(node.level)
      this.#hashes.push(node.hash)
    }
  }

  get size() {
    return this.#size
  }

  /**
   * Appends a leaf hash (already `leafHash`ed); the subtrees it completes are
   * pushed onto `completed` when given.
   */
  append(leaf: Hex, completed?: TreeNode[]) {
    const levels = this.#levels
    const hashes = this.#hashes
    let level = 0
    let hash = leaf
    this.#size++
    while (levels.length > 0 && levels[levels.length - 1] === level) {
      levels.pop()
      hash = nodeHash(hashes.pop()!, hash)
      level++
      completed?.push({ level, index: this.#size / 2 ** level - 1, hash })
    }
    levels.push(level)
    hashes.push(hash)
  }

  /**
   * Appends a whole complete subtree of 2^level leaves, computed elsewhere
   * (a verification worker's chunk); the tree's size must be a multiple of it.
   */
  appendSubtree(level: number, hash: Hex) {
    const width = 2 ** level
    if (this.#size % width !== 0) {
      throw new Error(`A subtree of ${width} leaves cannot follow a tree of ${this.#size}`)
    }
    const levels = this.#levels
    const hashes = this.#hashes
    this.#size += width
    while (levels.length > 0 && levels[levels.length - 1] === level) {
      levels.pop()
      hash = nodeHash(hashes.pop()!, hash)
      level++
    }
    levels.push(level)
    hashes.push(hash)
  }

  root(): Hex {
    return foldRight(this.#hashes)
  }

  /** The root of this tree followed by leaves whose own tree hashes to `tail` (any size below the next subtree). */
  rootWith(tail: Hex): Hex {
    return foldRight([...this.#hashes, tail])
  }
}

/** Which nodes make up the right edge of a tree of this size, largest first. */
export function frontierKeys(size: number): NodeKey[] {
  return size === 0 ? [] : piecesOf([0, size])
}

function assertIndex(m: number, n: number) {
  if (!Number.isSafeInteger(m) || !Number.isSafeInteger(n) || m < 0 || m >= n) {
    throw new RangeError(`Leaf ${m} is not in a tree of size ${n}`)
  }
}

function isPowerOfTwo(n: number) {
  return n > 0 && (n & (n - 1)) === 0
}
