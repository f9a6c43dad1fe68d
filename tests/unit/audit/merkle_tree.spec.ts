import { createHash } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import {
  EMPTY_ROOT,
  Frontier,
  consistencyRanges,
  frontierKeys,
  inclusionRanges,
  leafHash,
  leafHashOf,
  nodeHash,
  nodesFor,
  rangeHash,
  verifyConsistency,
  verifyInclusion,
  type Hex,
  type NodeKey,
} from '#services/audit/merkle_tree'
import { RawFrontier, rawHash } from '#services/audit/merkle_raw_frontier'

/**
 * The reference: RFC 9162 §2.1.1, §2.1.3.1 and §2.1.4.1 written as the RFC
 * writes them, recursively over the list of leaves, with their own hashing.
 */
const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest('hex')
const H = (left: Hex, right: Hex) =>
  sha(Buffer.of(1), Buffer.from(left, 'hex'), Buffer.from(right, 'hex'))
const split = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1)

function mth(leaves: Hex[]): Hex {
  if (leaves.length === 0) return sha(Buffer.alloc(0))
  if (leaves.length === 1) return leaves[0]
  const k = split(leaves.length)
  return H(mth(leaves.slice(0, k)), mth(leaves.slice(k)))
}

function path(m: number, leaves: Hex[]): Hex[] {
  if (leaves.length <= 1) return []
  const k = split(leaves.length)
  return m < k
    ? [...path(m, leaves.slice(0, k)), mth(leaves.slice(k))]
    : [...path(m - k, leaves.slice(k)), mth(leaves.slice(0, k))]
}

function subproof(m: number, leaves: Hex[], complete: boolean): Hex[] {
  const n = leaves.length
  if (m === n) return complete ? [] : [mth(leaves)]
  const k = split(n)
  return m <= k
    ? [...subproof(m, leaves.slice(0, k), complete), mth(leaves.slice(k))]
    : [...subproof(m - k, leaves.slice(k), false), mth(leaves.slice(0, k))]
}

/** The tree of our implementation over the same leaves, its nodes looked up like the database does. */
function lookupOver(leaves: Hex[]) {
  return (key: NodeKey) =>
    mth(leaves.slice(key.index * 2 ** key.level, (key.index + 1) * 2 ** key.level))
}

function leavesOf(n: number) {
  return Array.from({ length: n }, (_, i) => leafHashOf(Buffer.from(`leaf ${i}`)))
}

function flip(hash: Hex) {
  return (hash[0] === '0' ? '1' : '0') + hash.slice(1)
}

/** RFC 6962 test vectors (certificate-transparency and transparency-dev test data). */
const VECTOR_LEAVES = [
  '',
  '00',
  '10',
  '2021',
  '3031',
  '40414243',
  '5051525354555657',
  '606162636465666768696a6b6c6d6e6f',
].map((hex) => leafHashOf(Buffer.from(hex, 'hex')))
const VECTOR_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
]

test.group('Merkle tree / hashes of stored text', () => {
  test('a hash that is not hex hashes the same whatever was hashed before', ({ assert }) => {
    const tampered = `${'ab'.repeat(10)}zz${'cd'.repeat(21)}`
    const full = 'f'.repeat(64)
    leafHash(full)
    const afterFull = leafHash(tampered)
    leafHash('0'.repeat(64))
    assert.equal(leafHash(tampered), afterFull)
    // Decoding stops at "zz": the rest of the leaf is zeros.
    const zeros = Buffer.alloc(33)
    zeros.write('ab'.repeat(10), 1, 'hex')
    assert.equal(afterFull, createHash('sha256').update(zeros).digest('hex'))

    nodeHash(full, full)
    const node = nodeHash(tampered, full)
    nodeHash('0'.repeat(64), '0'.repeat(64))
    assert.equal(nodeHash(tampered, full), node)
  })
})

test.group('Merkle tree / RFC 6962 test vectors', () => {
  test('the empty tree and the roots of sizes 1 to 8', ({ assert }) => {
    assert.equal(EMPTY_ROOT, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    const frontier = new Frontier()
    assert.equal(frontier.root(), EMPTY_ROOT)
    VECTOR_LEAVES.forEach((leaf, i) => {
      frontier.append(leaf)
      assert.equal(frontier.root(), VECTOR_ROOTS[i], `size ${i + 1}`)
    })
  })

  test('inclusion proofs', ({ assert }) => {
    const lookup = lookupOver(VECTOR_LEAVES)
    const proof = (m: number, n: number) =>
      inclusionRanges(m, n).map((range) => rangeHash(range, lookup))
    assert.deepEqual(proof(0, 1), [])
    assert.deepEqual(proof(0, 8), [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ])
    assert.deepEqual(proof(5, 8), [
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ])
    assert.deepEqual(proof(2, 3), [
      'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
    ])
    assert.deepEqual(proof(1, 5), [
      '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ])
  })

  test('consistency proofs', ({ assert }) => {
    const lookup = lookupOver(VECTOR_LEAVES)
    const proof = (m: number, n: number) =>
      consistencyRanges(m, n).map((range) => rangeHash(range, lookup))
    assert.deepEqual(proof(1, 1), [])
    assert.deepEqual(proof(1, 8), [
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ])
    assert.deepEqual(proof(6, 8), [
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ])
    assert.deepEqual(proof(2, 5), [
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
    ])
  })
})

test.group('Merkle tree / against the RFC 9162 recursion, sizes 1 to 40', () => {
  const LEAVES = leavesOf(40)

  test('the frontier gives the RFC root at every size and records every completed node', ({
    assert,
  }) => {
    const frontier = new Frontier()
    const stored = new Map<string, Hex>()
    for (let n = 1; n <= 40; n++) {
      const completed: Array<NodeKey & { hash: Hex }> = []
      frontier.append(LEAVES[n - 1], completed)
      for (const node of completed) stored.set(`${node.level}:${node.index}`, node.hash)
      assert.equal(frontier.root(), mth(LEAVES.slice(0, n)), `root at size ${n}`)
      // Restarting from the stored right edge continues the same tree.
      const keys = frontierKeys(n)
      const restored = new Frontier(
        n,
        keys.map((key) => ({
          ...key,
          hash: key.level === 0 ? LEAVES[key.index] : stored.get(`${key.level}:${key.index}`)!,
        }))
      )
      assert.equal(restored.root(), frontier.root(), `restored at size ${n}`)
    }
    // Every complete subtree above the leaves was handed out exactly once, with the right hash.
    for (const [key, hash] of stored) {
      const [level, index] = key.split(':').map(Number)
      assert.equal(hash, mth(LEAVES.slice(index * 2 ** level, (index + 1) * 2 ** level)))
    }
    // A tree of n leaves has n − popcount(n) complete inner nodes: 40 is 101000b.
    assert.equal(stored.size, 40 - 2)
  })

  test('the raw frontier of whole-log verification gives the RFC root at every size', ({
    assert,
  }) => {
    const raw = new RawFrontier()
    assert.equal(raw.root(), mth([]))
    const entries = Array.from({ length: 40 }, (_, i) => sha(Buffer.from(`entry ${i}`)))
    for (let n = 1; n <= 40; n++) {
      // Leaf bytes written in place, or (every fifth) a leaf hash handed over whole.
      if (n % 5 === 0) {
        raw.appendLeafHash(rawHash(leafHashOf(Buffer.from(entries[n - 1], 'hex'))))
      } else {
        raw.leafInput.write(entries[n - 1], 1, 32, 'hex')
        raw.appendLeaf()
      }
      const leaves = entries.slice(0, n).map((entry) => leafHashOf(Buffer.from(entry, 'hex')))
      assert.equal(raw.size, n)
      assert.equal(raw.root(), mth(leaves), `root at size ${n}`)
    }
  })

  test('inclusion proofs equal PATH(m, D[n]) and verify; altered ones do not', ({ assert }) => {
    const lookup = lookupOver(LEAVES)
    for (let n = 1; n <= 40; n++) {
      const leaves = LEAVES.slice(0, n)
      const root = mth(leaves)
      for (let m = 0; m < n; m++) {
        const ranges = inclusionRanges(m, n)
        const proof = ranges.map((range) => rangeHash(range, lookup))
        assert.deepEqual(proof, path(m, leaves), `PATH(${m}, ${n})`)
        assert.isAtMost(nodesFor(ranges).length, 2 * Math.ceil(Math.log2(n + 1)))
        assert.isTrue(verifyInclusion(m, n, leaves[m], proof, root), `verify ${m} in ${n}`)

        assert.isFalse(verifyInclusion(m, n, flip(leaves[m]), proof, root))
        assert.isFalse(verifyInclusion(m, n, leaves[m], proof, flip(root)))
        if (n > 1) {
          assert.isFalse(
            verifyInclusion((m + 1) % n, n, leaves[m], proof, root),
            `wrong index ${m}`
          )
          assert.isFalse(verifyInclusion(m, n, leaves[m], proof.slice(0, -1), root))
          assert.isFalse(
            verifyInclusion(m, n, leaves[m], [...proof.slice(0, -1), flip(proof.at(-1)!)], root)
          )
        }
        assert.isFalse(verifyInclusion(m, n, leaves[m], [...proof, root], root))
        assert.isFalse(verifyInclusion(n, n, leaves[m], proof, root))
      }
    }
  })

  test('consistency proofs equal PROOF(m, D[n]) and verify; altered ones do not', ({ assert }) => {
    const lookup = lookupOver(LEAVES)
    for (let n = 1; n <= 40; n++) {
      const second = mth(LEAVES.slice(0, n))
      for (let m = 1; m <= n; m++) {
        const first = mth(LEAVES.slice(0, m))
        const proof = consistencyRanges(m, n).map((range) => rangeHash(range, lookup))
        assert.deepEqual(proof, subproof(m, LEAVES.slice(0, n), true), `PROOF(${m}, ${n})`)
        assert.isTrue(verifyConsistency(m, n, first, second, proof), `verify ${m} → ${n}`)

        assert.isFalse(verifyConsistency(m, n, flip(first), second, proof))
        assert.isFalse(verifyConsistency(m, n, first, flip(second), proof))
        if (proof.length > 0) {
          assert.isFalse(verifyConsistency(m, n, first, second, proof.slice(1)))
          assert.isFalse(
            verifyConsistency(m, n, first, second, [flip(proof[0]), ...proof.slice(1)])
          )
        }
        assert.isFalse(verifyConsistency(m, n, first, second, [...proof, second]))
        if (m < n) {
          // A forked second tree: same size, one leaf different.
          const forked = mth([...LEAVES.slice(0, n - 1), flip(LEAVES[n - 1])])
          assert.isFalse(verifyConsistency(m, n, first, forked, proof))
        }
      }
      assert.isTrue(verifyConsistency(0, n, EMPTY_ROOT, second, []))
    }
    assert.throws(() => consistencyRanges(5, 4))
    assert.throws(() => inclusionRanges(4, 4))
  })
})

test.group('Merkle tree / the dependency-free verifier agrees', () => {
  test('bin/verify_audit.mjs computes the same roots and accepts exactly the same proofs', async ({
    assert,
  }) => {
    const offline = await import(pathToFileURL(app.makePath('bin/verify_audit.mjs')).href)
    const LEAVES = leavesOf(40)
    for (let n = 1; n <= 40; n++) {
      const leaves = LEAVES.slice(0, n)
      const root = mth(leaves)
      assert.equal(offline.rootOf(leaves), root, `root ${n}`)
      for (let m = 0; m < n; m++) {
        const proof = path(m, leaves)
        assert.isTrue(offline.verifyInclusion(m, n, leaves[m], proof, root))
        assert.isFalse(offline.verifyInclusion(m, n, flip(leaves[m]), proof, root))
        if (n > 1) assert.isFalse(offline.verifyInclusion(m, n, leaves[m], proof.slice(1), root))
      }
      for (let m = 1; m <= n; m++) {
        const proof = subproof(m, leaves, true)
        const first = mth(LEAVES.slice(0, m))
        assert.isTrue(offline.verifyConsistency(m, n, first, root, proof), `${m} → ${n}`)
        assert.isFalse(offline.verifyConsistency(m, n, flip(first), root, proof))
      }
    }
  })
})
