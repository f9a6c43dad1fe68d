#!/usr/bin/env node
/*
 * Leadgate audit verifier — checks Leadgate audit evidence offline, without
 * trusting Leadgate and without any dependency: Node.js (18 or later) and its
 * built-in `crypto` only. Copy this one file anywhere.
 *
 *   node verify_audit.mjs <file> [--public-key <base64> | --verifier-key <name+id+key>]
 *                                [--checkpoint <checkpoint.json>]
 *
 * <file> is one of:
 *   - a lead's proof bundle     (GET /v1/audit-logs/proof?lead_id=…)
 *   - a consistency proof       (GET /v1/audit-logs/consistency?from=…&to=…)
 *   - a JSON export             (GET /v1/audit-logs?format=json…)
 *   - a CSV export              (GET /v1/audit-logs?format=csv…; the root is
 *                                checked when --checkpoint is given)
 *
 * What is checked (docs/audit.md of Leadgate):
 *   entry hash = sha256("leadgate-audit/v1\n" + RFC 8785 JSON of
 *                {event, ts, actor, lead_id, lead_seq, status_from, status_to, prev_hash})
 *   each lead's chain: lead_seq 1, 2, 3… and prev_hash = the previous entry's hash
 *   (64 zeros for the first);
 *   the RFC 9162 Merkle tree: leaf i = sha256(0x00 ‖ entry hash at log_index i),
 *   node = sha256(0x01 ‖ left ‖ right); inclusion and consistency proofs (§2.1.3.2, §2.1.4.2);
 *   the checkpoint: a C2SP tlog-checkpoint signed note (origin, size, base64 root),
 *   Ed25519-signed, key id = sha256(key name ‖ 0x0A ‖ 0x01 ‖ public key)[:4].
 *
 * Give the log's public key from a source you trust (--public-key or
 * --verifier-key); without one the key inside the file is used and the
 * verdict only shows the file is consistent with itself.
 *
 * Exit status: 0 everything verified, 1 something did not, 2 unusable input.
 */
import crypto from 'node:crypto'
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'

const GENESIS = '0'.repeat(64)
const DOMAIN = 'leadgate-audit/v1\n'
const HEX64 = /^[0-9a-f]{64}$/

// ---------------------------------------------------------------- hashing

const sha256hex = crypto.hash
  ? (data) => crypto.hash('sha256', data, 'hex')
  : (data) => crypto.createHash('sha256').update(data).digest('hex')

export const EMPTY_ROOT = sha256hex('')

const leafInput = Buffer.alloc(33)
const nodeInput = Buffer.alloc(65)
nodeInput[0] = 0x01

/** sha256(0x00 ‖ entry hash bytes) */
export function leafHash(entryHash) {
  leafInput.write(entryHash, 1, 32, 'hex')
  return sha256hex(leafInput)
}

/** sha256(0x01 ‖ left ‖ right) */
export function nodeHash(left, right) {
  nodeInput.write(left, 1, 32, 'hex')
  nodeInput.write(right, 33, 32, 'hex')
  return sha256hex(nodeInput)
}

/**
 * RFC 8785 for a flat object of strings, integers and nulls: keys sorted by
 * UTF-16 code units, each value as ECMAScript's JSON.stringify writes it.
 */
export function canonicalJson(object) {
  return `{${Object.keys(object)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${JSON.stringify(object[key])}`)
    .join(',')}}`
}

export function entryHash(leadId, entry) {
  const hashed = {
    event: entry.event,
    ts: entry.ts,
    actor: entry.actor,
    lead_id: leadId,
    lead_seq: entry.lead_seq,
    status_from: entry.status_from,
    status_to: entry.status_to,
    prev_hash: entry.prev_hash,
  }
  return sha256hex(DOMAIN + canonicalJson(hashed))
}

// ---------------------------------------------------------------- RFC 9162 §2.1

/** The root of the tree over these leaf hashes (a stack of right-edge subtrees). */
export function rootOf(leaves) {
  const tree = new Tree()
  for (const leaf of leaves) tree.append(leaf)
  return tree.root()
}

class Tree {
  levels = []
  hashes = []
  size = 0
  append(leaf) {
    let level = 0
    let hash = leaf
    this.size++
    while (this.levels.length > 0 && this.levels[this.levels.length - 1] === level) {
      this.levels.pop()
      hash = nodeHash(this.hashes.pop(), hash)
      level++
    }
    this.levels.push(level)
    this.hashes.push(hash)
  }
  root() {
    if (this.hashes.length === 0) return EMPTY_ROOT
    let root = this.hashes[this.hashes.length - 1]
    for (let i = this.hashes.length - 2; i >= 0; i--) root = nodeHash(this.hashes[i], root)
    return root
  }
}

const half = (n) => Math.floor(n / 2)

/** RFC 9162 §2.1.3.2 */
export function verifyInclusion(leafIndex, treeSize, leaf, proof, root) {
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize)) return false
  if (leafIndex < 0 || leafIndex >= treeSize) return false
  let fn = leafIndex
  let sn = treeSize - 1
  let r = leaf
  for (const p of proof) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r)
      while (fn % 2 === 0 && fn !== 0) {
        fn = half(fn)
        sn = half(sn)
      }
    } else {
      r = nodeHash(r, p)
    }
    fn = half(fn)
    sn = half(sn)
  }
  return sn === 0 && r === root
}

/** RFC 9162 §2.1.4.2 (first = 0 and first = second settled first) */
export function verifyConsistency(first, second, firstRoot, secondRoot, proof) {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second)) return false
  if (first < 0 || first > second) return false
  if (first === second) return proof.length === 0 && firstRoot === secondRoot
  if (first === 0) return proof.length === 0
  if (proof.length === 0) return false
  const path = (first & (first - 1)) === 0 ? [firstRoot, ...proof] : [...proof]
  let fn = first - 1
  let sn = second - 1
  while (fn % 2 === 1) {
    fn = half(fn)
    sn = half(sn)
  }
  let fr = path[0]
  let sr = path[0]
  for (const c of path.slice(1)) {
    if (sn === 0) return false
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr)
      sr = nodeHash(c, sr)
      while (fn % 2 === 0 && fn !== 0) {
        fn = half(fn)
        sn = half(sn)
      }
    } else {
      sr = nodeHash(sr, c)
    }
    fn = half(fn)
    sn = half(sn)
  }
  return fr === firstRoot && sr === secondRoot && sn === 0
}

// ---------------------------------------------------------------- signed notes

export function keyIdOf(name, publicKey) {
  return crypto
    .createHash('sha256')
    .update(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.of(0x0a, 0x01), publicKey]))
    .digest()
    .subarray(0, 4)
}

/** The public key from `--public-key <base64>` or a verifier key `name+keyid+base64(0x01 ‖ key)`. */
export function parseKey(text) {
  // The name holds no '+', the key id is 8 hex digits, and the key's base64 may itself contain '+'.
  const verifierKey = /^([^+]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+={0,2})$/.exec(text)
  if (verifierKey) {
    const [, name, id, encoded] = verifierKey
    const bytes = Buffer.from(encoded, 'base64')
    if (bytes.length !== 33 || bytes[0] !== 0x01)
      throw new Error('the verifier key is not an Ed25519 key')
    const key = bytes.subarray(1)
    if (keyIdOf(name, key).toString('hex') !== id)
      throw new Error('the verifier key’s id does not match its key')
    return { key, name }
  }
  const key = Buffer.from(text, 'base64')
  if (key.length !== 32) throw new Error('a public key is 32 bytes, base64-encoded')
  return { key, name: null }
}

/**
 * Checks a checkpoint `{origin, size, root, note}` against a public key: the
 * note text must be exactly "origin\nsize\nbase64(root)\n" and carry a
 * signature line from this key that verifies. Returns an error string or null.
 */
export function checkCheckpoint(checkpoint, publicKey, keyName = null) {
  if (!checkpoint || typeof checkpoint.note !== 'string') return 'there is no signed checkpoint'
  const { origin, size, root, note } = checkpoint
  if (!HEX64.test(root ?? '')) return 'the checkpoint root is not a hex SHA-256'
  if (keyName && keyName !== origin)
    return `the checkpoint's origin ${origin} is not the key's name ${keyName}`
  const body = `${origin}\n${size}\n${Buffer.from(root, 'hex').toString('base64')}\n`
  const split = note.lastIndexOf('\n\n')
  if (split < 0 || note.slice(0, split + 1) !== body) {
    return 'the signed note does not say what the checkpoint says (origin, size or root differ)'
  }
  const keyId = keyIdOf(origin, publicKey)
  const publicKeyObject = crypto.createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') },
    format: 'jwk',
  })
  for (const line of note.slice(split + 2).split('\n')) {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line)
    if (!match) continue
    const bytes = Buffer.from(match[2], 'base64')
    if (match[1] !== origin || !bytes.subarray(0, 4).equals(keyId)) continue
    const ok = crypto.verify(null, Buffer.from(body, 'utf8'), publicKeyObject, bytes.subarray(4))
    return ok ? null : 'the Ed25519 signature on the checkpoint does not verify with this key'
  }
  return `the checkpoint carries no signature by this key (${origin}+${keyId.toString('hex')})`
}

// ---------------------------------------------------------------- reporting

/** Collects what was checked; lists the first 50 failures and counts them all. */
class Verdict {
  failures = []
  count = 0
  lines = []
  ok(text) {
    this.lines.push(`  ok    ${text}`)
  }
  note(text) {
    this.lines.push(`  note  ${text}`)
  }
  fail(text) {
    this.count++
    if (this.failures.length >= 50) return
    this.failures.push(text)
    this.lines.push(`  FAIL  ${text}`)
  }
  get valid() {
    return this.count === 0
  }
}

function trustedKey(verdict, options, embedded) {
  if (options.key) {
    if (embedded && embedded !== options.key.key.toString('base64')) {
      verdict.note('the file names a different public key than the one you gave; yours is used')
    }
    return options.key
  }
  if (!embedded) throw new Error('no public key: pass --public-key or --verifier-key')
  verdict.note(
    `using the public key inside the file (${embedded}); compare it with the one the operator publishes`
  )
  return parseKey(embedded)
}

/**
 * Checks one entry of a lead's trail against the one before it (null for the
 * first seen) and recomputes its hash. `partial`: the trail may start after
 * lead_seq 1 (a filtered export). Returns the number of failures.
 */
function checkStep(verdict, leadId, previous, entry, partial) {
  const where = `lead ${leadId} lead_seq ${entry.lead_seq}${entry.log_index != null ? ` (log_index ${entry.log_index})` : ''}`
  let failures = 0
  const fail = (text) => {
    verdict.fail(`${where}: ${text}`)
    failures++
  }
  if (previous === null) {
    if (entry.lead_seq !== 1 && !partial) fail('the trail does not start at lead_seq 1')
    else if (entry.lead_seq === 1 && entry.prev_hash !== GENESIS)
      fail("the first entry's prev_hash is not 64 zeros")
  } else if (entry.lead_seq !== previous.lead_seq + 1) {
    fail(`follows lead_seq ${previous.lead_seq} — entries are missing`)
  } else if (entry.prev_hash !== previous.hash) {
    fail(`prev_hash is not the hash of lead_seq ${previous.lead_seq}`)
  }
  const recomputed = entryHash(leadId, entry)
  if (recomputed !== entry.hash)
    fail(`the entry was altered — its fields hash to ${recomputed}, it claims ${entry.hash}`)
  return failures
}

function checkTrail(verdict, leadId, entries, { partial = false } = {}) {
  let failures = 0
  let previous = null
  for (const entry of entries) {
    failures += checkStep(verdict, leadId, previous, entry, partial)
    previous = entry
  }
  return failures
}

// ---------------------------------------------------------------- proof bundle

export function verifyBundle(bundle, options = {}) {
  const verdict = new Verdict()
  const { key, name } = trustedKey(verdict, options, bundle.public_key)
  const checkpoint = bundle.checkpoint
  const signatureError = checkCheckpoint(checkpoint, key, name)
  if (signatureError) verdict.fail(`checkpoint: ${signatureError}`)
  else
    verdict.ok(
      `checkpoint signed by ${checkpoint.origin}+${keyIdOf(checkpoint.origin, key).toString('hex')}: tree size ${checkpoint.size}, root ${checkpoint.root}`
    )

  const entries = Array.isArray(bundle.entries) ? bundle.entries : []
  if (entries.length === 0) verdict.fail('the bundle has no entries')
  const broken = checkTrail(verdict, bundle.lead_id, entries)
  if (entries.length > 0 && broken === 0) {
    verdict.ok(
      `lead ${bundle.lead_id}: ${entries.length} entries, lead_seq 1–${entries.length}, every hash recomputed, chained from 64 zeros`
    )
  }

  const proofs = Array.isArray(bundle.proofs) ? bundle.proofs : []
  let included = 0
  entries.forEach((entry, i) => {
    const proof = proofs[i]
    const where = `lead_seq ${entry.lead_seq} (log_index ${entry.log_index})`
    if (!proof || proof.leaf_index !== entry.log_index || proof.log_index !== entry.log_index) {
      verdict.fail(`${where}: no inclusion proof for this entry`)
    } else if (proof.tree_size !== checkpoint?.size) {
      verdict.fail(
        `${where}: the proof is for tree size ${proof.tree_size}, the checkpoint is ${checkpoint?.size}`
      )
    } else if (
      !verifyInclusion(
        proof.leaf_index,
        proof.tree_size,
        leafHash(entry.hash),
        proof.hashes,
        checkpoint.root
      )
    ) {
      verdict.fail(
        `${where}: the inclusion proof does not lead to the signed root — the entry is not in the log as signed`
      )
    } else {
      included++
    }
  })
  if (included === entries.length && entries.length > 0) {
    verdict.ok(
      `all ${included} entries are in the signed tree (log_index ${entries.map((e) => e.log_index).join(', ')})`
    )
  }
  return verdict
}

// ---------------------------------------------------------------- consistency proof

export function verifyConsistencyFile(file, options = {}) {
  const verdict = new Verdict()
  const { key, name } = trustedKey(verdict, options, file.public_key)
  for (const [label, checkpoint] of [
    ['from', file.from],
    ['to', file.to],
  ]) {
    const error = checkCheckpoint(checkpoint, key, name)
    if (error) verdict.fail(`${label} checkpoint: ${error}`)
    else verdict.ok(`${label} checkpoint signed: size ${checkpoint.size}, root ${checkpoint.root}`)
  }
  if (verdict.valid) {
    if (
      verifyConsistency(
        file.from.size,
        file.to.size,
        file.from.root,
        file.to.root,
        file.hashes ?? []
      )
    ) {
      verdict.ok(
        `tree ${file.to.size} extends tree ${file.from.size}: nothing signed before was changed or removed`
      )
    } else {
      verdict.fail(
        `the consistency proof from ${file.from.size} to ${file.to.size} does not verify: the log was rewritten`
      )
    }
  }
  return verdict
}

// ---------------------------------------------------------------- exports

/** Collects the leaves of a complete export and checks them against the checkpoint's root. */
class LeafSet {
  constructor(size) {
    this.size = size
    this.hashes = Buffer.alloc(size * 32)
    this.seen = new Uint8Array(size)
    this.beyond = 0
    this.duplicates = []
  }
  add(logIndex, hash) {
    if (logIndex === null || logIndex === undefined) return
    if (logIndex >= this.size) {
      this.beyond++
      return
    }
    if (this.seen[logIndex]) this.duplicates.push(logIndex)
    this.seen[logIndex] = 1
    this.hashes.write(hash, logIndex * 32, 32, 'hex')
  }
  check(verdict, checkpoint) {
    for (const index of this.duplicates.slice(0, 5))
      verdict.fail(`log_index ${index} appears twice`)
    const missing = []
    for (let i = 0; i < this.size && missing.length < 5; i++) if (!this.seen[i]) missing.push(i)
    if (missing.length > 0) {
      verdict.fail(
        `log_index ${missing.join(', ')}${missing.length === 5 ? ', …' : ''} missing: entries were removed from the export or the log`
      )
      return
    }
    const tree = new Tree()
    for (let i = 0; i < this.size; i++)
      tree.append(leafHash(this.hashes.toString('hex', i * 32, i * 32 + 32)))
    const root = tree.root()
    if (root === checkpoint.root) {
      verdict.ok(
        `the ${this.size} sealed entry hashes rebuild the signed root ${root}: no sealed entry was added, removed or given another hash`
      )
    } else {
      verdict.fail(
        `the ${this.size} sealed entries rebuild root ${root}, not the signed ${checkpoint.root}: the export or the log was altered`
      )
    }
    if (this.beyond > 0)
      verdict.note(
        `${this.beyond} entries are newer than the checkpoint and covered by their chains only`
      )
  }
}

function checkExportHeader(verdict, header, options) {
  const { key, name } = trustedKey(verdict, options, header.public_key)
  const checkpoint = header.checkpoint
  if (!checkpoint) {
    verdict.note(
      'the export carries no checkpoint: hashes and chains are checked, membership in the log is not'
    )
    return null
  }
  const error = checkCheckpoint(checkpoint, key, name)
  if (error) {
    verdict.fail(`checkpoint: ${error}`)
    return null
  }
  verdict.ok(`checkpoint signed: tree size ${checkpoint.size}, root ${checkpoint.root}`)
  return checkpoint
}

async function verifyJsonExport(path, options) {
  const verdict = new Verdict()
  const { header, leads } = await readExport(path)
  const checkpoint = checkExportHeader(verdict, header, options)
  const complete = header.complete === true
  const leaves = complete && checkpoint ? new LeafSet(checkpoint.size) : null
  let leadCount = 0
  let entryCount = 0
  let broken = 0
  for await (const lead of leads) {
    leadCount++
    entryCount += lead.events.length
    broken += checkTrail(verdict, lead.lead_id, lead.events, { partial: !complete })
    for (const event of lead.events) leaves?.add(event.log_index, event.hash)
  }
  if (broken === 0) {
    verdict.ok(
      `${entryCount} entries of ${leadCount} leads: every hash recomputed, every chain linked${complete ? ' from lead_seq 1' : ''}`
    )
  }
  if (leaves) leaves.check(verdict, checkpoint)
  else if (!complete)
    verdict.note(
      'a filtered export: trails may start after lead_seq 1, and the tree root needs the whole log'
    )
  return verdict
}

/** The header object and the leads, one by one: line by line for Leadgate's layout, whole otherwise. */
async function readExport(path) {
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })
  const iterator = lines[Symbol.asyncIterator]()
  const first = (await iterator.next()).value ?? ''
  if (first.endsWith('"leads":[')) {
    const header = JSON.parse(`${first}]}`)
    async function* leads() {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        const line = next.value
        if (line.startsWith(']')) break
        yield JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line)
      }
      lines.close()
    }
    return { header, leads: leads() }
  }
  lines.close()
  const whole = JSON.parse(readFileSync(path, 'utf8'))
  return { header: whole, leads: (whole.leads ?? [])[Symbol.iterator]() }
}

const CSV_COLUMNS = [
  'lead_id',
  'log_index',
  'lead_seq',
  'event',
  'ts',
  'actor',
  'status_from',
  'status_to',
  'prev_hash',
  'hash',
]

/** One RFC 4180 record (Leadgate's exports never break a field over lines). */
function parseCsvLine(line) {
  const fields = []
  let i = 0
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = ''
      i++
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          value += '"'
          i += 2
        } else if (line[i] === '"') {
          i++
          break
        } else {
          value += line[i++]
        }
      }
      fields.push(value)
      i++
    } else {
      const end = line.indexOf(',', i)
      const stop = end < 0 ? line.length : end
      fields.push(line.slice(i, stop))
      i = stop + 1
    }
  }
  return fields
}

async function verifyCsvExport(path, options) {
  const verdict = new Verdict()
  let checkpoint = null
  if (options.checkpoint) {
    const { key, name } = trustedKey(verdict, options, options.checkpoint.public_key)
    const error = checkCheckpoint(options.checkpoint, key, name)
    if (error) verdict.fail(`checkpoint: ${error}`)
    else {
      checkpoint = options.checkpoint
      verdict.ok(`checkpoint signed: tree size ${checkpoint.size}, root ${checkpoint.root}`)
    }
  } else {
    verdict.note('no --checkpoint: hashes and chains are checked, membership in the log is not')
  }
  const leaves = checkpoint ? new LeafSet(checkpoint.size) : null
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })
  const trails = new Map()
  let header = null
  let rows = 0
  let broken = 0
  for await (const line of lines) {
    if (line === '') continue
    const fields = parseCsvLine(line)
    if (!header) {
      header = fields
      if (CSV_COLUMNS.some((column) => !header.includes(column)))
        throw new Error(`the CSV lacks columns: ${CSV_COLUMNS.join(', ')}`)
      continue
    }
    const row = Object.fromEntries(header.map((column, i) => [column, fields[i]]))
    const entry = {
      event: row.event,
      ts: row.ts,
      actor: row.actor,
      lead_seq: Number(row.lead_seq),
      status_from: row.status_from === '' ? null : row.status_from,
      status_to: row.status_to,
      prev_hash: row.prev_hash,
      hash: row.hash,
      log_index: row.log_index === '' ? null : Number(row.log_index),
    }
    broken += checkStep(verdict, row.lead_id, trails.get(row.lead_id) ?? null, entry, true)
    trails.set(row.lead_id, { lead_seq: entry.lead_seq, hash: entry.hash })
    leaves?.add(entry.log_index, entry.hash)
    rows++
  }
  if (broken === 0)
    verdict.ok(`${rows} rows of ${trails.size} leads: every hash recomputed, every chain linked`)
  if (leaves) leaves.check(verdict, checkpoint)
  return verdict
}

// ---------------------------------------------------------------- command line

export async function verifyFile(path, options = {}) {
  const head = Buffer.alloc(Math.min(statSync(path).size, 4096))
  const fd = openSync(path, 'r')
  readSync(fd, head, 0, head.length, 0)
  closeSync(fd)
  const start = head.toString('utf8').trimStart()
  if (start === '') throw new Error('the file is empty')
  if (start.startsWith('lead_id,') || start.split('\n')[0].split(',').includes('log_index')) {
    return { kind: 'CSV export', verdict: await verifyCsvExport(path, options) }
  }
  if (!start.startsWith('{'))
    throw new Error('not a Leadgate proof bundle, consistency proof or export')
  if (start.includes('"leadgate-audit-export/v1"') || start.includes('"leads"')) {
    return { kind: 'JSON export', verdict: await verifyJsonExport(path, options) }
  }
  const document = JSON.parse(readFileSync(path, 'utf8'))
  if (document.from && document.to && Array.isArray(document.hashes)) {
    return { kind: 'consistency proof', verdict: verifyConsistencyFile(document, options) }
  }
  if (Array.isArray(document.proofs))
    return { kind: 'proof bundle', verdict: verifyBundle(document, options) }
  throw new Error('not a Leadgate proof bundle, consistency proof or export')
}

function parseArgs(argv) {
  const options = {}
  let file = null
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--public-key' || arg === '--verifier-key') options.key = parseKey(argv[++i] ?? '')
    else if (arg === '--checkpoint')
      options.checkpoint = JSON.parse(readFileSync(argv[++i], 'utf8'))
    else if (arg === '--help' || arg === '-h') options.help = true
    else if (!file) file = arg
    else throw new Error(`unexpected argument ${arg}`)
  }
  return { file, options }
}

async function main() {
  let parsed
  try {
    parsed = parseArgs(process.argv.slice(2))
  } catch (error) {
    console.error(`verify_audit: ${error.message}`)
    return 2
  }
  if (!parsed.file || parsed.options.help) {
    console.error(
      'usage: node verify_audit.mjs <bundle-or-export> [--public-key <base64> | --verifier-key <vkey>] [--checkpoint <checkpoint.json>]'
    )
    return 2
  }
  try {
    const { kind, verdict } = await verifyFile(parsed.file, parsed.options)
    console.log(`Leadgate audit verifier: ${kind} ${parsed.file}`)
    for (const line of verdict.lines) console.log(line)
    console.log(
      verdict.valid
        ? 'VALID'
        : `INVALID: ${verdict.count} problem(s); the first: ${verdict.failures[0]}`
    )
    return verdict.valid ? 0 : 1
  } catch (error) {
    console.error(`verify_audit: ${error.message}`)
    return 2
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main()
}
