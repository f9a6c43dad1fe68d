import { execFile } from 'node:child_process'
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { uuidv7 } from 'uuidv7'
import Principal from '#auth/principal'
import { startAuditSealer } from '#services/audit/sealer_loop'
import AuditChainService, {
  entryHash,
  GENESIS_HASH,
  type NewEntry,
} from '#services/audit/audit_chain_service'
import AuditExportService from '#services/audit/audit_export_service'
import AuditSealerService from '#services/audit/audit_sealer_service'
import { CheckpointSigner, keyIdOf, verifyCheckpoint } from '#services/audit/checkpoint_signing'
import { ENTRY_FIELDS, EntryHasher } from '#services/audit/entry_hasher'
import AuditVerifierService, { type LogFailure } from '#services/audit/audit_verifier_service'
import { hexOf } from '#services/audit/merkle_raw_frontier'
import { BinaryTuples } from '#services/audit/pg_binary_copy'
import { leafHash, verifyConsistency, verifyInclusion } from '#services/audit/merkle_tree'
import { asAdmin, tamperAudit } from '#tests/support/admin_db'
import { recordSale } from '#tests/support/money'
import {
  createBuyer,
  createKey,
  leadBody,
  livePublisher,
  operatorKey,
} from '#tests/support/fixtures'

const sealer = new AuditSealerService()
const chain = new AuditChainService()
const signer = CheckpointSigner.configured()
/** Files handed to the offline verifier, as an auditor would save them. */
const OUT = mkdtempSync(join(tmpdir(), 'leadgate-audit-evidence-'))

async function newLead(client: any, who?: { publisher: { slug: string }; key: string }) {
  const owner = who ?? (await livePublisher())
  const response = await client
    .post('/v1/leads')
    .bearerToken(owner.key)
    .json(leadBody(owner.publisher.slug))
  response.assertStatus(201)
  return { ...owner, leadId: response.body().id as string }
}

async function sealedLead(client: any, who?: { publisher: { slug: string }; key: string }) {
  const lead = await newLead(client, who)
  await sealer.sealAll()
  return lead
}

async function bundle(client: any, key: string, leadId: string) {
  const response = await client.get('/v1/audit-logs/proof').qs({ lead_id: leadId }).bearerToken(key)
  response.assertStatus(200)
  return response.body()
}

/** The shipped verifier as an auditor runs it: a separate node process, nothing of the project loaded. */
function verifier(...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [app.makePath('bin/verify_audit.mjs'), ...args],
      { cwd: OUT },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as any).code as number) : 0, stdout, stderr })
      }
    )
  })
}

function file(name: string, content: unknown) {
  const path = `${OUT}/${randomUUID()}-${name}`
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  return path
}

const mine = (leadId: string) => (failure: LogFailure) => failure.lead_id === leadId
const verifyLog = () => new AuditVerifierService().verifyLog()

test.group('Audit evidence / sealing', () => {
  test('committed entries get the next log_index in id order, in a tree whose root the signed checkpoint names', async ({
    client,
    assert,
  }) => {
    const { leadId } = await newLead(client)
    const result = await sealer.sealAll()
    assert.equal(result.status, 'sealed')
    assert.isAtLeast(result.sealed, 4)

    const positions = await db.rawQuery(
      `SELECT p.log_index, e.id, e.hash FROM audit.log_positions p JOIN audit.entries e ON e.id = p.entry_id ORDER BY p.log_index`
    )
    const rows: Array<{ index: number; id: number; hash: string }> = positions.rows.map(
      (row: any) => ({
        index: Number(row.log_index),
        id: Number(row.id),
        hash: row.hash as string,
      })
    )
    assert.deepEqual(
      rows.map((row) => row.index),
      rows.map((_, i) => i),
      'log_index runs from 0 without gaps'
    )
    const mineSealed = rows.filter((row) => row.index >= result.size_before)
    assert.deepEqual(
      mineSealed.map((row) => row.id),
      [...mineSealed.map((row) => row.id)].sort((a, b) => a - b),
      'in id order'
    )
    const unsealed = await db.rawQuery(
      'SELECT count(*)::int AS n FROM audit.entries e WHERE NOT EXISTS (SELECT 1 FROM audit.log_positions p WHERE p.entry_id = e.id)'
    )
    assert.equal(unsealed.rows[0].n, 0)
    const leadIndexes = await db.rawQuery(
      'SELECT p.log_index FROM audit.entries e JOIN audit.log_positions p ON p.entry_id = e.id WHERE e.lead_id = ? ORDER BY e.lead_seq',
      [leadId]
    )
    assert.lengthOf(leadIndexes.rows, 4)

    // The root, recomputed here from the RFC 9162 definition with nothing of the service.
    const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest()
    const mth = (leaves: Buffer[]): Buffer => {
      if (leaves.length === 1) return leaves[0]
      const k = 2 ** Math.ceil(Math.log2(leaves.length) - 1)
      return sha(Buffer.of(1), mth(leaves.slice(0, k)), mth(leaves.slice(k)))
    }
    const root = mth(rows.map((row) => sha(Buffer.of(0), Buffer.from(row.hash, 'hex')))).toString(
      'hex'
    )

    const checkpoint = result.checkpoint!
    assert.equal(checkpoint.size, rows.length)
    assert.equal(checkpoint.root, root)
    const stored = await db.from('audit.checkpoints').where('size', rows.length).firstOrFail()
    assert.equal(stored.root, root)
    assert.equal(stored.note, checkpoint.note)

    // C2SP tlog-checkpoint: origin, size, base64 root, blank line, "— <name> base64(key id ‖ signature)".
    const lines = checkpoint.note.split('\n')
    assert.equal(lines[0], signer.origin)
    assert.equal(lines[1], String(rows.length))
    assert.equal(lines[2], Buffer.from(root, 'hex').toString('base64'))
    assert.equal(lines[3], '')
    const [dash, name, blob] = lines[4].split(' ')
    assert.equal(dash, '\u2014')
    assert.equal(name, signer.origin)
    const keyId = createHash('sha256')
      .update(`${signer.origin}\n`)
      .update(Buffer.of(1))
      .update(signer.publicKey)
      .digest()
      .subarray(0, 4)
    assert.deepEqual(Buffer.from(blob, 'base64').subarray(0, 4), keyId)
    assert.equal(checkpoint.key_id, keyId.toString('hex'))
    assert.equal(lines[5], '')
    assert.isTrue(verifyCheckpoint(checkpoint, signer.publicKey).valid)
  })

  test('a run with nothing new writes nothing; a new lead extends the tree consistently', async ({
    client,
    assert,
  }) => {
    await sealer.sealAll()
    const before = await db.from('audit.checkpoints').count('* as n').first()
    const idle = await sealer.seal()
    assert.equal(idle.status, 'idle')
    assert.equal(idle.sealed, 0)
    assert.deepEqual(await db.from('audit.checkpoints').count('* as n').first(), before)

    const { leadId } = await newLead(client)
    const grown = await sealer.seal()
    assert.equal(grown.sealed, 4)
    assert.equal(grown.size_after, idle.size_after + 4)
    const sealedRows = await db.rawQuery(
      'SELECT count(*)::int AS n FROM audit.log_positions p JOIN audit.entries e ON e.id = p.entry_id WHERE e.lead_id = ? AND p.log_index >= ?',
      [leadId, idle.size_after]
    )
    assert.equal(sealedRows.rows[0].n, 4)

    const response = await client
      .get('/v1/audit-logs/consistency')
      .qs({ from: idle.size_after, to: grown.size_after })
      .bearerToken(await operatorKey())
    response.assertStatus(200)
    const proof = response.body()
    assert.equal(proof.from.root, idle.checkpoint!.root)
    assert.equal(proof.to.root, grown.checkpoint!.root)
    assert.isTrue(
      verifyConsistency(
        idle.size_after,
        grown.size_after,
        proof.from.root,
        proof.to.root,
        proof.hashes
      )
    )
    assert.isFalse(
      verifyConsistency(
        idle.size_after,
        grown.size_after,
        proof.from.root,
        leafHash(GENESIS_HASH),
        proof.hashes
      )
    )
  })

  test('one sealer at a time: while another holds the lock, a run does nothing', async ({
    client,
    assert,
  }) => {
    await newLead(client)
    await asAdmin(async (other) => {
      await other.query("SELECT pg_advisory_lock(hashtext('leadgate:audit-sealer'))")
      try {
        const result = await sealer.seal()
        assert.equal(result.status, 'locked')
        assert.equal(result.sealed, 0)
      } finally {
        await other.query("SELECT pg_advisory_unlock(hashtext('leadgate:audit-sealer'))")
      }
    })
    assert.isAbove((await sealer.sealAll()).sealed, 0)
  })

  test('an entry committed after later ones were sealed still gets sealed', async ({ assert }) => {
    const entries: NewEntry[] = [
      { event: 'lead.received', actor: 'system:test', statusFrom: null, statusTo: 'received' },
    ]
    const publisherId = randomUUID()
    const late = uuidv7()
    const early = uuidv7()
    const trx = await db.transaction()
    let lateId: string
    try {
      ;[{ id: lateId }] = await chain.append(trx, {
        publisherId,
        leadId: late,
        environment: 'live',
        entries,
      })
      // A second transaction takes a higher id and commits first; the sealer passes over the first.
      await db.transaction((other) =>
        chain.append(other, { publisherId, leadId: early, environment: 'live', entries })
      )
      await sealer.sealAll()
      await sealer.sealAll()
      await trx.commit()
    } catch (error) {
      await trx.rollback()
      throw error
    }
    const position = () =>
      db
        .rawQuery('SELECT p.log_index FROM audit.log_positions p WHERE p.entry_id = ?', [lateId])
        .then((r) => r.rows[0])
    assert.isUndefined(await position())
    await sealer.sealAll()
    assert.isDefined(await position())
  })

  test('entries sealed later than the lag bound after their ts are flagged', async ({ assert }) => {
    const leadId = uuidv7()
    const publisherId = randomUUID()
    const hashed = {
      event: 'lead.received',
      ts: new Date(Date.now() - 3_600_000).toISOString(),
      actor: 'system:importer',
      lead_id: leadId,
      lead_seq: 1,
      status_from: null,
      status_to: 'received',
      prev_hash: GENESIS_HASH,
    }
    const hash = entryHash(hashed)
    await db
      .table('audit.entries')
      .insert({ ...hashed, publisher_id: publisherId, hash, environment: 'live' })
    await db
      .table('audit.chain_heads')
      .insert({ lead_id: leadId, publisher_id: publisherId, last_seq: 1, last_hash: hash })
    await sealer.sealAll({ lagBoundMs: 60_000 })

    const lag = await db.from('audit.sealing_lags').where('lead_id', leadId).firstOrFail()
    assert.equal(lag.publisher_id, publisherId)
    assert.isAbove(Number(lag.lag_ms), 3_500_000)
    assert.equal(Number(lag.bound_ms), 60_000)
    const position = await db.rawQuery(
      'SELECT p.log_index FROM audit.log_positions p JOIN audit.entries e ON e.id = p.entry_id WHERE e.lead_id = ?',
      [leadId]
    )
    assert.equal(Number(lag.log_index), Number(position.rows[0].log_index))
  })

  test('the worker loop seals new entries by itself and stops cleanly', async ({
    client,
    assert,
  }) => {
    await sealer.sealAll()
    const seals: number[] = []
    const stop = startAuditSealer({
      intervalMs: 100,
      pollMs: 50,
      onSeal: (result) => seals.push(result.sealed),
    })
    try {
      const { leadId } = await newLead(client)
      const deadline = Date.now() + 10_000
      let sealed = 0
      while (sealed < 4 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const rows = await db.rawQuery(
          'SELECT count(*)::int AS n FROM audit.entries e JOIN audit.log_positions p ON p.entry_id = e.id WHERE e.lead_id = ?',
          [leadId]
        )
        sealed = rows.rows[0].n
      }
      assert.equal(sealed, 4)
    } finally {
      await stop()
    }
    assert.isAbove(
      seals.reduce((a, b) => a + b, 0),
      0
    )
  })
})

test.group('Audit evidence / proofs over the API', () => {
  test('a proof bundle proves every entry of the lead against the signed checkpoint', async ({
    client,
    assert,
  }) => {
    const { key, leadId } = await newLead(client)
    const early = await client.get('/v1/audit-logs/proof').qs({ lead_id: leadId }).bearerToken(key)
    early.assertStatus(409)
    assert.equal(early.body().code, 'not_sealed')
    assert.isAbove(early.body().retry_after_seconds, 0)

    await sealer.sealAll()
    const proof = await bundle(client, key, leadId)
    assert.equal(proof.format, 'leadgate-audit-proof/v1')
    assert.equal(proof.lead_id, leadId)
    assert.deepEqual(
      proof.entries.map((e: any) => e.lead_seq),
      [1, 2, 3, 4]
    )
    assert.equal(proof.public_key, signer.publicKey.toString('base64'))
    assert.equal(
      proof.verifier_key,
      `${signer.origin}+${keyIdOf(signer.origin, signer.publicKey).toString('hex')}+${Buffer.concat([Buffer.of(1), signer.publicKey]).toString('base64')}`
    )
    assert.isTrue(verifyCheckpoint(proof.checkpoint, Buffer.from(proof.public_key, 'base64')).valid)
    for (const [i, entry] of proof.entries.entries()) {
      assert.equal(entry.hash, entryHash({ ...entry, lead_id: leadId }))
      const inclusion = proof.proofs[i]
      assert.equal(inclusion.log_index, entry.log_index)
      assert.equal(inclusion.leaf_index, entry.log_index)
      assert.equal(inclusion.tree_size, proof.checkpoint.size)
      assert.isTrue(
        verifyInclusion(
          entry.log_index,
          proof.checkpoint.size,
          leafHash(entry.hash),
          inclusion.hashes,
          proof.checkpoint.root
        )
      )
    }

    const latest = await client.get('/v1/audit-logs/checkpoints/latest').bearerToken(key)
    latest.assertStatus(200)
    assert.equal(latest.body().size, proof.checkpoint.size)
    assert.equal(latest.body().public_key, proof.public_key)
  })

  test('proofs follow the lead’s visibility: 404 for others, 422 for a bad id', async ({
    client,
    assert,
  }) => {
    const { key, leadId } = await sealedLead(client)
    const stranger = await livePublisher()
    const buyer = await createBuyer()
    const buyerKey = (await createKey({ buyerId: buyer.id })).secret

    ;(
      await client.get('/v1/audit-logs/proof').qs({ lead_id: leadId }).bearerToken(stranger.key)
    ).assertStatus(404)
    ;(
      await client.get('/v1/audit-logs/proof').qs({ lead_id: leadId }).bearerToken(buyerKey)
    ).assertStatus(404)
    ;(
      await client.get('/v1/audit-logs/proof').qs({ lead_id: uuidv7() }).bearerToken(key)
    ).assertStatus(404)
    const malformed = await client
      .get('/v1/audit-logs/proof')
      .qs({ lead_id: 'nope' })
      .bearerToken(key)
    malformed.assertStatus(422)
    assert.include(malformed.header('content-type'), 'application/problem+json')

    await recordSale(leadId, buyer.id)
    ;(
      await client.get('/v1/audit-logs/proof').qs({ lead_id: leadId }).bearerToken(buyerKey)
    ).assertStatus(200)
    ;(
      await client
        .get('/v1/audit-logs/proof')
        .qs({ lead_id: leadId })
        .bearerToken(await operatorKey())
    ).assertStatus(200)
  })

  test('consistency between checkpoints: 404 for a size never signed, 422 for from > to or junk', async ({
    client,
    assert,
  }) => {
    await sealedLead(client)
    const key = await operatorKey()
    const latest = (await client.get('/v1/audit-logs/checkpoints/latest').bearerToken(key)).body()
    ;(
      await client
        .get('/v1/audit-logs/consistency')
        .qs({ from: latest.size + 1000, to: latest.size + 2000 })
        .bearerToken(key)
    ).assertStatus(404)
    ;(
      await client
        .get('/v1/audit-logs/consistency')
        .qs({ from: latest.size, to: 0 })
        .bearerToken(key)
    ).assertStatus(422)
    ;(
      await client.get('/v1/audit-logs/consistency').qs({ from: 'x', to: -1 }).bearerToken(key)
    ).assertStatus(422)
    const same = await client
      .get('/v1/audit-logs/consistency')
      .qs({ from: latest.size, to: latest.size })
      .bearerToken(key)
    same.assertStatus(200)
    assert.deepEqual(same.body().hashes, [])
    assert.equal(same.body().from.root, latest.root)
  })

  test('whole-log verification is the operator’s; it recomputes every chain, leaf, root and signature', async ({
    client,
    assert,
  }) => {
    const { key, leadId } = await sealedLead(client)
    ;(await client.get('/v1/audit-logs/verify').bearerToken(key)).assertStatus(403)
    const response = await client.get('/v1/audit-logs/verify').bearerToken(await operatorKey())
    response.assertStatus(200)
    const report = response.body()
    assert.isNull(report.lead_id)
    const size = Number(
      (await db.rawQuery('SELECT count(*) AS n FROM audit.log_positions')).rows[0].n
    )
    assert.equal(report.tree_size, size)
    assert.equal(report.sealed, size)
    const latest = await db.from('audit.checkpoints').orderBy('size', 'desc').firstOrFail()
    assert.equal(report.root, latest.root)
    assert.isEmpty(report.failures.filter(mine(leadId)))
    // Other test files tamper with their own trails on purpose; no checkpoint may fail.
    assert.notProperty(report.failure_counts, 'checkpoint_root_mismatch')
    assert.notProperty(report.failure_counts, 'checkpoint_signature_invalid')
    assert.notProperty(report.failure_counts, 'missing_leaf')
  })

  test('verification in tiny chunks (many threads’ worth of stitching) reaches the same verdict', async ({
    client,
    assert,
  }) => {
    await sealedLead(client)
    await newLead(client) // left unsealed on purpose
    const whole = await new AuditVerifierService(signer, 2).verifyLog()
    const tiny = await new AuditVerifierService(signer, 2, 1).verifyLog()
    const single = await new AuditVerifierService(signer, 1, 3).verifyLog()
    for (const report of [tiny, single]) {
      assert.equal(report.root, whole.root)
      assert.equal(report.tree_size, whole.tree_size)
      assert.equal(report.unsealed, whole.unsealed)
      assert.equal(report.leads, whole.leads)
      assert.deepEqual(report.failure_counts, whole.failure_counts)
      assert.deepEqual(report.broken_at, whole.broken_at)
    }
    assert.isAtLeast(whole.unsealed, 4)
  })

  test('the verifier hashes Postgres’ binary rows exactly as RFC 8785 does, odd values included', async ({
    assert,
  }) => {
    const base = {
      event: 'lead.received',
      ts: '2026-11-22T10:00:00.001Z',
      actor: 'api_key:k',
      lead_id: uuidv7(),
      lead_seq: 12,
      status_from: null as string | null,
      status_to: 'received',
      prev_hash: GENESIS_HASH,
    }
    // Every control, quote and backslash at each place in a 4-byte word, multi-byte UTF-8,
    // long strings. (No NUL and no lone surrogates: Postgres cannot store them.)
    const odd = [
      'plain',
      'quote " and \\ backslash',
      'tab\tnew\nline\u0001',
      'é ü 漢字',
      'emoji 🧾',
      '\u2028\u2029',
      '\u007f',
      '',
      ...Array.from({ length: 31 }, (_, i) => `c${String.fromCharCode(i + 1)}`),
      ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((i) => [
        'x'.repeat(i) + '"',
        'y'.repeat(i) + '\\',
        'z'.repeat(i),
      ]),
      'é'.repeat(700),
      `${'a'.repeat(2000)}\n`,
    ]
    // [as Postgres reads it, as formatTs writes it (milliseconds cut, not rounded)]
    const times = [
      ['2026-11-22 10:00:00.001+00', '2026-11-22T10:00:00.001Z'],
      ['2026-11-22 23:59:59.999999+00', '2026-11-22T23:59:59.999Z'],
      ['2000-01-01 00:00:00+00', '2000-01-01T00:00:00.000Z'],
      ['1999-12-31 23:59:59.9999+00', '1999-12-31T23:59:59.999Z'],
      ['1970-01-01 00:00:00.0005+00', '1970-01-01T00:00:00.000Z'],
      ['1969-12-31 23:59:59.001+00', '1969-12-31T23:59:59.001Z'],
      ['2024-02-29 12:34:56.789+00', '2024-02-29T12:34:56.789Z'],
      ['0001-01-01 00:00:00+00', '0001-01-01T00:00:00.000Z'],
      ['9999-12-31 23:59:59.999+00', '9999-12-31T23:59:59.999Z'],
      ['2300-06-01 08:00:00.25+00', '2300-06-01T08:00:00.250Z'],
      ['10000-01-01 00:00:00+00', '+010000-01-01T00:00:00.000Z'],
      ['0044-03-15 00:00:00+00 BC', '-000043-03-15T00:00:00.000Z'],
    ]
    const entries = [
      ...odd.flatMap((value) => [
        { ...base, actor: value },
        { ...base, status_from: value },
        { ...base, event: value, status_to: value },
        { ...base, prev_hash: value },
      ]),
      ...times.map(([, ts]) => ({ ...base, ts })),
      ...[1, 9, 10, 99, 100, 2147483647, 0, -5].map((seq) => ({ ...base, lead_seq: seq })),
    ]
    const pgTs = new Map(times.map(([pgText, ts]) => [ts, pgText]))
    const rows = await asAdmin(async (admin) => {
      const literal = (value: string | null) =>
        value === null ? 'NULL' : admin.escapeLiteral(value)
      const values = entries.map(
        (entry, i) =>
          `(${i}::bigint, ${literal(entry.lead_id)}::uuid, ${entry.lead_seq}::int, ${literal(entry.event)}, ` +
          `${literal(pgTs.get(entry.ts) ?? entry.ts)}::timestamptz, ${literal(entry.actor)}, ` +
          `${literal(entry.status_from)}, ${literal(entry.status_to)}, ${literal(entry.prev_hash)}::char(64), '')`
      )
      return BinaryTuples.read(
        admin,
        `SELECT * FROM (VALUES ${values.join(', ')}) AS e(id, lead_id, lead_seq, event, ts, actor, status_from, status_to, prev_hash, hash)`,
        ENTRY_FIELDS
      )
    })
    const hasher = new EntryHasher()
    for (const entry of entries) {
      assert.isTrue(rows.next())
      // char(64) cuts or pads to 64 characters (code points), as a stored prev_hash would be.
      const chars = [...entry.prev_hash].slice(0, 64)
      const expected = entryHash({
        ...entry,
        prev_hash: chars.join('') + ' '.repeat(64 - chars.length),
      })
      assert.equal(hexOf(hasher.hash(rows)), expected, JSON.stringify(entry))
    }
    assert.isFalse(rows.next())
  })
})

test.group('Audit evidence / exports', () => {
  test('CSV: one row per event with lead_id, log_index and hashes, scoped to the caller', async ({
    client,
    assert,
  }) => {
    const other = await sealedLead(client)
    const first = await sealedLead(client)
    const second = await newLead(client, first)

    const own = await client.get('/v1/audit-logs').qs({ format: 'csv' }).bearerToken(first.key)
    own.assertStatus(200)
    assert.include(own.header('content-type'), 'text/csv')
    assert.include(own.header('content-disposition'), 'attachment')
    const [header, ...lines] = own.text().trim().split('\n')
    assert.equal(
      header,
      'lead_id,log_index,lead_seq,event,ts,actor,status_from,status_to,prev_hash,hash'
    )
    const rows = lines.map((line) => line.split(','))
    assert.sameMembers([...new Set(rows.map((row) => row[0]))], [first.leadId, second.leadId])
    assert.lengthOf(rows, 8)
    for (const [leadId, logIndex, seq, event, ts, actor, from, to, prev, hash] of rows) {
      assert.equal(
        hash,
        entryHash({
          event,
          ts,
          actor,
          lead_id: leadId,
          lead_seq: Number(seq),
          status_from: from || null,
          status_to: to,
          prev_hash: prev,
        })
      )
      if (leadId === first.leadId) assert.match(logIndex, /^\d+$/)
      else assert.equal(logIndex, '', 'not sealed yet')
    }

    const operator = await operatorKey()
    const filtered = await client
      .get('/v1/audit-logs')
      .qs({ format: 'csv', publisher: other.publisher.slug })
      .bearerToken(operator)
    filtered.assertStatus(200)
    const otherRows = filtered.text().trim().split('\n').slice(1)
    assert.lengthOf(otherRows, 4)
    assert.isTrue(otherRows.every((line) => line.startsWith(other.leadId)))

    const later = await client
      .get('/v1/audit-logs')
      .qs({
        format: 'csv',
        publisher: other.publisher.slug,
        from: new Date(Date.now() + 60_000).toISOString(),
      })
      .bearerToken(operator)
    assert.lengthOf(later.text().trim().split('\n'), 1, 'only the header')

    for (const qs of [
      { format: 'xml' },
      { format: 'csv', from: 'yesterday' },
      { format: 'csv', colour: 'blue' },
      { format: 'csv', buyer: 'x' },
    ]) {
      const bad = await client.get('/v1/audit-logs').qs(qs).bearerToken(operator)
      bad.assertStatus(422)
    }
  })

  test('a buyer exports only the leads delivered to it; compliance exports everything', async ({
    client,
    assert,
  }) => {
    const delivered = await sealedLead(client)
    const notDelivered = await newLead(client, delivered)
    const buyer = await createBuyer()
    await recordSale(delivered.leadId, buyer.id)
    const buyerKey = (await createKey({ buyerId: buyer.id })).secret

    const csv = await client.get('/v1/audit-logs').qs({ format: 'csv' }).bearerToken(buyerKey)
    csv.assertStatus(200)
    const leads = new Set(
      csv
        .text()
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0])
    )
    assert.deepEqual([...leads], [delivered.leadId])

    const byBuyer = await client
      .get('/v1/audit-logs')
      .qs({ format: 'csv', buyer: buyer.id })
      .bearerToken(await operatorKey())
    assert.deepEqual(
      [
        ...new Set(
          byBuyer
            .text()
            .trim()
            .split('\n')
            .slice(1)
            .map((line) => line.split(',')[0])
        ),
      ],
      [delivered.leadId]
    )

    const compliance = new Principal('compliance', new Set(['read']), 'live', 'operator:auditor')
    const exports = new AuditExportService()
    assert.isTrue(exports.isComplete(compliance, {}))
    let text = ''
    for await (const chunk of exports.csv(compliance, { publisher: delivered.publisher.slug }))
      text += chunk
    const all = new Set(
      text
        .trim()
        .split('\n')
        .slice(1)
        .map((line) => line.split(',')[0])
    )
    assert.sameMembers([...all], [delivered.leadId, notDelivered.leadId])
  })

  test('JSON: one object per lead with its events, log indexes and the checkpoint, valid JSON', async ({
    client,
    assert,
  }) => {
    const first = await sealedLead(client)
    await newLead(client, first)
    const response = await client
      .get('/v1/audit-logs')
      .qs({ format: 'json' })
      .bearerToken(first.key)
    response.assertStatus(200)
    const document = JSON.parse(response.text())
    assert.equal(document.format, 'leadgate-audit-export/v1')
    assert.isFalse(document.complete)
    assert.isTrue(verifyCheckpoint(document.checkpoint, signer.publicKey).valid)
    assert.equal(document.lead_count, 2)
    assert.equal(document.event_count, 8)
    const lead = document.leads.find((l: any) => l.lead_id === first.leadId)
    assert.deepEqual(
      lead.events.map((e: any) => e.lead_seq),
      [1, 2, 3, 4]
    )
    assert.isTrue(lead.events.every((e: any) => Number.isInteger(e.log_index)))
    assert.equal(lead.events[0].prev_hash, GENESIS_HASH)
    assert.equal(lead.events[1].prev_hash, lead.events[0].hash)
    // One lead per line between a header line and a footer line: readable lead by lead.
    const lines = response.text().trim().split('\n')
    assert.isTrue(lines[0].endsWith('"leads":['))
    assert.isTrue(lines.at(-1)!.startsWith(']'))
    assert.lengthOf(lines, 4)
  })
})

test.group('Audit evidence / the offline verifier', () => {
  test('accepts a good proof bundle and rejects each kind of tampering', async ({
    client,
    assert,
  }) => {
    const { key, leadId } = await sealedLead(client)
    const good = await bundle(client, key, leadId)
    const trusted = ['--public-key', signer.publicKey.toString('base64')]

    const ok = await verifier(file('bundle.json', good), ...trusted)
    assert.equal(ok.code, 0, ok.stdout + ok.stderr)
    assert.include(ok.stdout, 'proof bundle')
    assert.include(ok.stdout, `lead ${leadId}: 4 entries`)
    assert.include(ok.stdout, 'all 4 entries are in the signed tree')
    assert.match(ok.stdout.trim().split('\n').at(-1)!, /^VALID$/)

    const altered = structuredClone(good)
    altered.entries[2].actor = 'operator:someone-else'
    const refused = await verifier(file('altered.json', altered), ...trusted)
    assert.equal(refused.code, 1)
    assert.include(refused.stdout, `lead ${leadId} lead_seq 3`)
    assert.include(refused.stdout, 'the entry was altered')

    // Rewriting the hash too moves the problem to the chain and to the tree.
    const rehashed = structuredClone(good)
    rehashed.entries[3].actor = 'operator:someone-else'
    rehashed.entries[3].hash = entryHash({ ...rehashed.entries[3], lead_id: leadId })
    const caught = await verifier(file('rehashed.json', rehashed), ...trusted)
    assert.equal(caught.code, 1)
    assert.include(caught.stdout, 'does not lead to the signed root')

    const dropped = structuredClone(good)
    dropped.entries.splice(1, 1)
    dropped.proofs.splice(1, 1)
    const gap = await verifier(file('dropped.json', dropped), ...trusted)
    assert.equal(gap.code, 1)
    assert.include(gap.stdout, 'entries are missing')

    const other = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x!
    const wrongKey = await verifier(
      file('bundle.json', good),
      '--public-key',
      Buffer.from(other, 'base64url').toString('base64')
    )
    assert.equal(wrongKey.code, 1)
    assert.include(wrongKey.stdout, 'carries no signature by this key')

    const forged = structuredClone(good)
    forged.checkpoint.note = forged.checkpoint.note.replace(
      `\n${good.checkpoint.size}\n`,
      `\n${good.checkpoint.size + 1}\n`
    )
    const forgedNote = await verifier(file('forged.json', forged), ...trusted)
    assert.equal(forgedNote.code, 1)

    const unusable = await verifier(file('junk.json', '{"hello": 1}'))
    assert.equal(unusable.code, 2)
  })

  test('checks a consistency proof and an export, and spots a lead removed from a full export', async ({
    client,
    assert,
  }) => {
    const first = await sealedLead(client)
    const before = (
      await client.get('/v1/audit-logs/checkpoints/latest').bearerToken(first.key)
    ).body()
    await sealedLead(client, first)
    const after = (
      await client.get('/v1/audit-logs/checkpoints/latest').bearerToken(first.key)
    ).body()
    const consistency = await client
      .get('/v1/audit-logs/consistency')
      .qs({ from: before.size, to: after.size })
      .bearerToken(first.key)
    const proved = await verifier(
      file('consistency.json', consistency.body()),
      '--verifier-key',
      signer.verifierKey
    )
    assert.equal(proved.code, 0, proved.stdout)
    assert.include(proved.stdout, `tree ${after.size} extends tree ${before.size}`)

    const own = await client.get('/v1/audit-logs').qs({ format: 'json' }).bearerToken(first.key)
    const filtered = await verifier(
      file('own.json', own.text()),
      '--verifier-key',
      signer.verifierKey
    )
    assert.equal(filtered.code, 0, filtered.stdout)
    assert.include(filtered.stdout, 'JSON export')
    assert.include(filtered.stdout, '8 entries of 2 leads')

    const csv = await client.get('/v1/audit-logs').qs({ format: 'csv' }).bearerToken(first.key)
    const rows = await verifier(file('own.csv', csv.text()), '--verifier-key', signer.verifierKey)
    assert.equal(rows.code, 0, rows.stdout)
    assert.include(rows.stdout, '8 rows of 2 leads')
    const forgedCsv = csv.text().replace(/lead\.validated/, 'lead.rejected')
    assert.equal((await verifier(file('forged.csv', forgedCsv))).code, 1)

    // The operator's full export rebuilds the signed root; without one lead it cannot.
    const full = await client
      .get('/v1/audit-logs')
      .qs({ format: 'json' })
      .bearerToken(await operatorKey())
    full.assertStatus(200)
    const complete = await verifier(
      file('full.json', full.text()),
      '--verifier-key',
      signer.verifierKey
    )
    assert.include(complete.stdout, 'rebuild the signed root')
    assert.notInclude(complete.stdout, 'missing: entries were removed')
    const lines = full.text().split('\n')
    const victim = lines.findIndex((line) => line.includes(first.leadId))
    const without = [...lines.slice(0, victim), ...lines.slice(victim + 1)]
      .join('\n')
      .replace('[\n,', '[\n')
    const cut = await verifier(file('cut.json', without), '--verifier-key', signer.verifierKey)
    assert.equal(cut.code, 1)
    assert.include(cut.stdout, 'missing: entries were removed from the export or the log')
  })
})

test.group('Audit evidence / tampering behind the application’s back', (group) => {
  group.teardown(() => rmSync(OUT, { recursive: true, force: true }))

  test('an altered entry is named by lead, lead_seq and log_index; the offline verifier refuses it too', async ({
    client,
    assert,
  }) => {
    const { key, leadId } = await sealedLead(client)
    const original = await db
      .from('audit.entries')
      .where({ lead_id: leadId, lead_seq: 2 })
      .firstOrFail()
    const position = await db
      .from('audit.log_positions')
      .where('entry_id', original.id)
      .firstOrFail()
    await tamperAudit('UPDATE audit.entries SET actor = $1 WHERE id = $2', [
      'operator:forger',
      original.id,
    ])
    try {
      const report = await verifyLog()
      assert.isFalse(report.valid)
      const failure = report.failures.find(mine(leadId))!
      assert.deepInclude(failure, {
        reason: 'hash_mismatch',
        lead_id: leadId,
        lead_seq: 2,
        log_index: Number(position.log_index),
        entry_id: String(original.id),
      })

      const lead = await client
        .get('/v1/audit-logs/verify')
        .qs({ lead_id: leadId })
        .bearerToken(key)
      assert.deepEqual(lead.body().broken_at, { lead_seq: 2, reason: 'hash_mismatch' })

      const offline = await verifier(file('tampered.json', await bundle(client, key, leadId)))
      assert.equal(offline.code, 1)
      assert.include(offline.stdout, 'lead_seq 2')
    } finally {
      await tamperAudit('UPDATE audit.entries SET actor = $1 WHERE id = $2', [
        original.actor,
        original.id,
      ])
    }
    assert.isEmpty((await verifyLog()).failures.filter(mine(leadId)))
  })

  test('deleting a lead’s whole trail, head and positions included, breaks the signed checkpoints', async ({
    client,
    assert,
  }) => {
    const { leadId } = await sealedLead(client)
    await sealedLead(client) // the trail is not the last thing in the tree
    const entries = await db.from('audit.entries').where('lead_id', leadId).orderBy('id')
    const positions = await db
      .from('audit.log_positions')
      .whereIn(
        'entry_id',
        entries.map((e) => e.id)
      )
      .orderBy('log_index')
    const head = await db.from('audit.chain_heads').where('lead_id', leadId).firstOrFail()
    const first = Number(positions[0].log_index)

    await tamperAudit(
      'DELETE FROM audit.log_positions WHERE entry_id = ANY($1::bigint[])',
      [entries.map((e) => e.id)],
      'audit.log_positions'
    )
    await tamperAudit('DELETE FROM audit.entries WHERE lead_id = $1', [leadId])
    await tamperAudit(
      'DELETE FROM audit.chain_heads WHERE lead_id = $1',
      [leadId],
      'audit.chain_heads'
    )
    try {
      const report = await verifyLog()
      assert.isFalse(report.valid)
      const missing = report.failures.find(
        (f) => f.reason === 'missing_leaf' && f.log_index === first
      )
      assert.exists(missing, JSON.stringify(report.failures))
      assert.include(missing!.detail, `log_index ${first} to ${first + 3}`)
      const mismatch = report.failures.find(
        (f) => f.reason === 'checkpoint_root_mismatch' && f.checkpoint_size! > first
      )
      assert.exists(mismatch, 'a checkpoint that covered the trail no longer matches')
    } finally {
      await asAdmin(async (admin) => {
        for (const entry of entries) {
          const columns = Object.keys(entry)
          await admin.query(
            `INSERT INTO audit.entries (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
            columns.map((column) => entry[column])
          )
        }
        for (const position of positions) {
          await admin.query(
            'INSERT INTO audit.log_positions (log_index, entry_id) VALUES ($1, $2)',
            [position.log_index, position.entry_id]
          )
        }
        await admin.query(
          'INSERT INTO audit.chain_heads (lead_id, publisher_id, last_seq, last_hash) VALUES ($1, $2, $3, $4)',
          [head.lead_id, head.publisher_id, head.last_seq, head.last_hash]
        )
      })
    }
    const restored = await verifyLog()
    assert.notProperty(restored.failure_counts, 'missing_leaf')
    assert.notProperty(restored.failure_counts, 'checkpoint_root_mismatch')
  })

  test('an entry whose position was removed is still recomputed, as an entry without one', async ({
    client,
    assert,
  }) => {
    const { leadId } = await sealedLead(client)
    await sealedLead(client) // sealed after it: its id is below the last sealed one
    const before = await verifyLog()
    const entry = await db
      .from('audit.entries')
      .where({ lead_id: leadId, lead_seq: 3 })
      .firstOrFail()
    const position = await db.from('audit.log_positions').where('entry_id', entry.id).firstOrFail()
    await tamperAudit(
      'DELETE FROM audit.log_positions WHERE entry_id = $1',
      [entry.id],
      'audit.log_positions'
    )
    await tamperAudit('UPDATE audit.entries SET actor = $1 WHERE id = $2', [
      'operator:forger',
      entry.id,
    ])
    try {
      const report = await verifyLog()
      assert.equal(report.entries, before.entries, 'every entry is still read')
      assert.equal(report.unsealed, before.unsealed + 1)
      assert.exists(
        report.failures.find(
          (f) => f.reason === 'missing_leaf' && f.log_index === Number(position.log_index)
        ),
        JSON.stringify(report.failures)
      )
      // Its trail skips it in log order; the entry itself is checked after the sealed ones.
      assert.deepInclude(report.failures.find(mine(leadId)), { reason: 'seq_gap', lead_seq: 4 })
      assert.deepInclude(
        report.failures.find((f) => mine(leadId)(f) && f.reason === 'hash_mismatch'),
        { log_index: null, entry_id: String(entry.id), lead_seq: 3 }
      )
    } finally {
      await tamperAudit('UPDATE audit.entries SET actor = $1 WHERE id = $2', [
        entry.actor,
        entry.id,
      ])
      await asAdmin((admin) =>
        admin.query('INSERT INTO audit.log_positions (log_index, entry_id) VALUES ($1, $2)', [
          position.log_index,
          position.entry_id,
        ])
      )
    }
    const restored = await verifyLog()
    assert.equal(restored.unsealed, before.unsealed)
    assert.notProperty(restored.failure_counts, 'missing_leaf')
  })

  test('a checkpoint re-signed with another key fails its signature check', async ({
    client,
    assert,
  }) => {
    await sealedLead(client)
    const stored = await db.from('audit.checkpoints').orderBy('size', 'desc').firstOrFail()
    const impostor = new CheckpointSigner(signer.origin, generateKeyPairSync('ed25519').privateKey)
    const forged = impostor.sign(Number(stored.size), stored.root)
    await tamperAudit(
      'UPDATE audit.checkpoints SET key_id = $1, signature = $2, note = $3 WHERE size = $4',
      [forged.key_id, forged.signature, forged.note, stored.size],
      'audit.checkpoints'
    )
    try {
      const report = await verifyLog()
      assert.isFalse(report.valid)
      const failure = report.failures.find((f) => f.reason === 'checkpoint_signature_invalid')
      assert.deepInclude(failure, { checkpoint_size: Number(stored.size) })
      assert.include(failure!.detail, 'no signature by')
      assert.notProperty(report.failure_counts, 'checkpoint_root_mismatch')
    } finally {
      await tamperAudit(
        'UPDATE audit.checkpoints SET key_id = $1, signature = $2, note = $3 WHERE size = $4',
        [stored.key_id, stored.signature, stored.note, stored.size],
        'audit.checkpoints'
      )
    }
    assert.notProperty((await verifyLog()).failure_counts, 'checkpoint_signature_invalid')
  })

  test('a fork (a second entry with the same lead_seq) is refused by the database, even for the superuser', async ({
    client,
    assert,
  }) => {
    const { leadId } = await sealedLead(client)
    const second = await db
      .from('audit.entries')
      .where({ lead_id: leadId, lead_seq: 2 })
      .firstOrFail()
    const fork = {
      ...second,
      id: undefined,
      actor: 'operator:forger',
      created_at: undefined,
    }
    delete fork.id
    delete fork.created_at
    fork.hash = entryHash({ ...fork, ts: second.ts })
    const error = await db
      .table('audit.entries')
      .insert(fork)
      .then(
        () => null,
        (e) => e
      )
    assert.equal(error?.code, '23505')
    assert.include(error.message, 'entries_lead_seq_unique')

    const asSuperuser = await asAdmin((admin) =>
      admin
        .query(
          'INSERT INTO audit.entries (publisher_id, lead_id, lead_seq, event, ts, actor, status_from, status_to, prev_hash, hash, environment) SELECT publisher_id, lead_id, lead_seq, event, ts, $2, status_from, status_to, prev_hash, hash, environment FROM audit.entries WHERE id = $1',
          [second.id, 'operator:forger']
        )
        .then(
          () => null,
          (e) => e
        )
    )
    assert.equal(asSuperuser?.code, '23505')
    assert.equal(
      (await db.from('audit.entries').where('lead_id', leadId).count('* as n').first())!.n,
      '4'
    )
  })
})
