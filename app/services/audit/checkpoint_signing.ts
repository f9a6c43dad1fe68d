import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import auditConfig from '#config/audit'

/** A signed tree head as the API hands it out: hashes in hex, signature and key bytes in base64. */
export type Checkpoint = {
  origin: string
  size: number
  root: string
  /** The 4-byte C2SP key id, hex. */
  key_id: string
  /** The raw 64-byte Ed25519 signature over the note text, base64. */
  signature: string
  /** The complete C2SP tlog-checkpoint signed note. */
  note: string
}

const ED25519 = 0x01
const EM_DASH = '\u2014'
/** PKCS#8 wrapping of a bare 32-byte Ed25519 seed (RFC 8410). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex')

/** The note text of a checkpoint (c2sp.org/tlog-checkpoint): origin, size, base64 root, each line ended. */
export function checkpointBody(origin: string, size: number, root: string) {
  return `${origin}\n${size}\n${Buffer.from(root, 'hex').toString('base64')}\n`
}

/** key ID = SHA-256(key name ‖ 0x0A ‖ 0x01 ‖ 32-byte public key)[:4] (c2sp.org/signed-note). */
export function keyIdOf(name: string, publicKey: Buffer) {
  return createHash('sha256')
    .update(name)
    .update(Buffer.of(0x0a, ED25519))
    .update(publicKey)
    .digest()
    .subarray(0, 4)
}

/** The verifier key string Go's `sumdb/note` and C2SP tooling read: name+hex(key id)+base64(0x01 ‖ key). */
export function verifierKey(name: string, publicKey: Buffer) {
  const encoded = Buffer.concat([Buffer.of(ED25519), publicKey]).toString('base64')
  return `${name}+${keyIdOf(name, publicKey).toString('hex')}+${encoded}`
}

export type NoteCheck = { valid: true } | { valid: false; reason: string }

/**
 * Checks a stored or received checkpoint against a public key: its note
 * must say exactly what its fields say, and carry a signature line from
 * this key (by name and key id) that verifies over the note text.
 */
export function verifyCheckpoint(checkpoint: Checkpoint, publicKey: Buffer): NoteCheck {
  const body = checkpointBody(checkpoint.origin, checkpoint.size, checkpoint.root)
  const split = checkpoint.note.lastIndexOf('\n\n')
  if (split < 0) return { valid: false, reason: 'the note has no signature block' }
  if (checkpoint.note.slice(0, split + 1) !== body) {
    return {
      valid: false,
      reason: 'the note text differs from the checkpoint (origin, size or root)',
    }
  }
  const keyId = keyIdOf(checkpoint.origin, publicKey)
  const lines = checkpoint.note
    .slice(split + 2)
    .split('\n')
    .filter((line) => line !== '')
  for (const line of lines) {
    const match = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line)
    if (!match) return { valid: false, reason: `malformed signature line ${JSON.stringify(line)}` }
    const bytes = Buffer.from(match[2], 'base64')
    if (match[1] !== checkpoint.origin || !bytes.subarray(0, 4).equals(keyId)) continue
    const signature = bytes.subarray(4)
    if (signature.toString('base64') !== checkpoint.signature) {
      return { valid: false, reason: 'the signature field differs from the note’s signature line' }
    }
    const ok = verify(null, Buffer.from(body), publicKeyObject(publicKey), signature)
    return ok ? { valid: true } : { valid: false, reason: 'the Ed25519 signature does not verify' }
  }
  return { valid: false, reason: `no signature by ${checkpoint.origin}+${keyId.toString('hex')}` }
}

/** Signs checkpoints with the log's Ed25519 key; the key name is the log's origin. */
export class CheckpointSigner {
  readonly publicKey: Buffer
  readonly keyId: Buffer

  constructor(
    readonly origin: string,
    private privateKey: KeyObject
  ) {
    if (privateKey.asymmetricKeyType !== 'ed25519') {
      throw new Error('The audit signing key must be an Ed25519 key')
    }
    if (!origin || /[\s+]/u.test(origin)) {
      throw new Error(
        `The audit origin ${JSON.stringify(origin)} must be non-empty, without spaces or "+"`
      )
    }
    this.publicKey = rawPublicKey(createPublicKey(privateKey))
    this.keyId = keyIdOf(origin, this.publicKey)
  }

  sign(size: number, root: string): Checkpoint {
    const body = checkpointBody(this.origin, size, root)
    const signature = sign(null, Buffer.from(body), this.privateKey)
    const line = Buffer.concat([this.keyId, signature]).toString('base64')
    return {
      origin: this.origin,
      size,
      root,
      key_id: this.keyId.toString('hex'),
      signature: signature.toString('base64'),
      note: `${body}\n${EM_DASH} ${this.origin} ${line}\n`,
    }
  }

  get verifierKey() {
    return verifierKey(this.origin, this.publicKey)
  }

  static #configured: CheckpointSigner | undefined

  /** The signer from configuration, loaded (or, in development and test, created) once. */
  static configured(): CheckpointSigner {
    this.#configured ??= new CheckpointSigner(auditConfig.origin, loadSigningKey())
    return this.#configured
  }
}

export function parsePrivateKey(value: string): KeyObject {
  const text = value.trim()
  if (text.includes('-----BEGIN')) return createPrivateKey(text.replaceAll('\\n', '\n'))
  const seed = Buffer.from(text, 'base64')
  if (seed.length !== 32) {
    throw new Error('AUDIT_SIGNING_KEY must be a PKCS#8 PEM or a base64 32-byte Ed25519 seed')
  }
  return createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  })
}

export function rawPublicKey(key: KeyObject) {
  return Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url')
}

export function publicKeyObject(raw: Buffer) {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
    format: 'jwk',
  })
}

function loadSigningKey(): KeyObject {
  if (auditConfig.signingKey) return parsePrivateKey(auditConfig.signingKey)
  if (!auditConfig.generateDevKey) {
    throw new Error('AUDIT_SIGNING_KEY is not set: checkpoints cannot be signed')
  }
  const path = auditConfig.devKeyPath
  try {
    return createPrivateKey(readFileSync(path, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const { privateKey } = generateKeyPairSync('ed25519')
  mkdirSync(dirname(path), { recursive: true })
  // Written aside and linked into place: of two processes racing, one key wins whole.
  const draft = `${path}.${process.pid}.tmp`
  writeFileSync(draft, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 })
  try {
    linkSync(draft, path)
    return privateKey
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return createPrivateKey(readFileSync(path, 'utf8'))
  } finally {
    unlinkSync(draft)
  }
}
