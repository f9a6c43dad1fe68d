import { createHash, randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import { uuidv7 } from 'uuidv7'
import db from '@adonisjs/lucid/services/db'
import AuditChainService, {
  GENESIS_HASH,
  entryHash,
  type NewEntry,
} from '#services/audit/audit_chain_service'
import { asAdmin, tamperAudit } from '#tests/support/admin_db'

const audit = new AuditChainService()
const PUBLISHER = randomUUID()

const RECEIVED: NewEntry = {
  event: 'lead.received',
  actor: 'api_key:k1',
  statusFrom: null,
  statusTo: 'received',
}
const CONSENTED: NewEntry = {
  event: 'consent.captured',
  actor: 'api_key:k1',
  statusFrom: 'received',
  statusTo: 'consented',
}
const VALIDATED: NewEntry = {
  event: 'lead.validated',
  actor: 'rule:quality',
  statusFrom: 'consented',
  statusTo: 'validated',
}
const ACCEPTED: NewEntry = {
  event: 'lead.accepted',
  actor: 'rule:quality',
  statusFrom: 'validated',
  statusTo: 'accepted',
}
const DELIVERED: NewEntry = {
  event: 'lead.delivered',
  actor: 'system:router',
  statusFrom: 'accepted',
  statusTo: 'delivered',
}

function append(leadId: string, entries: NewEntry[], publisherId = PUBLISHER) {
  return db.transaction((trx) =>
    audit.append(trx, { publisherId, leadId, environment: 'live', entries })
  )
}

/** A trail of five entries, written in three appends. */
async function trail() {
  const leadId = uuidv7()
  await append(leadId, [RECEIVED, CONSENTED])
  await append(leadId, [VALIDATED, ACCEPTED])
  await append(leadId, [DELIVERED])
  return leadId
}

const tamper = (sql: string, params: unknown[]) => tamperAudit(sql, params)

async function isValid(leadId: string) {
  const verification = await audit.verify(leadId)
  return verification.valid
}

async function brokenAt(leadId: string) {
  const verification = await audit.verify(leadId)
  return verification.broken_at
}

async function errorOf(work: () => Promise<unknown>) {
  try {
    await work()
  } catch (error) {
    return error as { code?: string; message: string }
  }
  throw new Error('expected the statement to fail')
}

test.group('Audit chain / hashing', () => {
  test('the entry hash is sha256 over the domain tag and RFC 8785 JSON', ({ assert }) => {
    const entry = {
      event: 'lead.received',
      ts: '2026-06-01T12:00:00.123Z',
      actor: 'api_key:k1',
      lead_id: '01970000-0000-7000-8000-000000000001',
      lead_seq: 1,
      status_from: null,
      status_to: 'received',
      prev_hash: GENESIS_HASH,
    }
    // For these plain ASCII values RFC 8785 is JSON with the keys sorted.
    const sorted = Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1)))
    const expected = createHash('sha256')
      .update(`leadgate-audit/v1\n${JSON.stringify(sorted)}`)
      .digest('hex')
    assert.equal(entryHash(entry), expected)
    assert.equal(entryHash({ ...entry, ts: new Date('2026-06-01T12:00:00.123Z') as any }), expected)
    assert.notEqual(entryHash({ ...entry, actor: 'api_key:k2' }), expected)
  })
})

test.group('Audit chain / append and verify', () => {
  test('several appends form one chain that verifies', async ({ assert }) => {
    const leadId = await trail()
    const entries = await audit.entriesFor(PUBLISHER, leadId)

    assert.deepEqual(
      entries.map((entry) => entry.lead_seq),
      [1, 2, 3, 4, 5]
    )
    assert.deepEqual(
      entries.map((entry) => entry.event),
      ['lead.received', 'consent.captured', 'lead.validated', 'lead.accepted', 'lead.delivered']
    )
    assert.equal(entries[0].prev_hash, GENESIS_HASH)
    assert.isNull(entries[0].status_from)
    for (const [index, entry] of entries.entries()) {
      assert.match(entry.ts, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
      assert.equal(entry.hash, entryHash(entry))
      if (index > 0) {
        assert.equal(entry.prev_hash, entries[index - 1].hash)
        assert.isAtLeast(Date.parse(entry.ts), Date.parse(entries[index - 1].ts))
      }
    }

    const head = await db.from('audit.chain_heads').where('lead_id', leadId).firstOrFail()
    assert.equal(head.last_seq, 5)
    assert.equal(head.last_hash, entries[4].hash)
    assert.deepEqual(await audit.verify(leadId), {
      lead_id: leadId,
      valid: true,
      entries: 5,
      broken_at: null,
    })
  })

  test('append returns the stored entries with their ids', async ({ assert }) => {
    const leadId = uuidv7()
    const written = await append(leadId, [RECEIVED, CONSENTED])
    const stored = await audit.entriesFor(null, leadId)
    assert.deepEqual(written, stored)
  })

  test('reads are limited to the publisher; null reads as the operator', async ({ assert }) => {
    const leadId = await trail()
    assert.lengthOf(await audit.entriesFor(PUBLISHER, leadId), 5)
    assert.lengthOf(await audit.entriesFor(null, leadId), 5)
    assert.deepEqual(await audit.entriesFor(randomUUID(), leadId), [])
    const foreign = await audit.verify(leadId, randomUUID())
    assert.equal(foreign.entries, 0)
  })

  test("a lead's trail cannot be continued under another publisher", async ({ assert }) => {
    const leadId = await trail()
    const error = await errorOf(() => append(leadId, [DELIVERED], randomUUID()))
    assert.include(error.message, 'another publisher')
    assert.lengthOf(await audit.entriesFor(null, leadId), 5)
  })

  test('entries refuse free text: an e-mail as actor or a sentence as event is an error', async ({
    assert,
  }) => {
    const leadId = uuidv7()
    for (const entry of [
      { ...RECEIVED, actor: 'publisher:jan@example.nl' },
      { ...RECEIVED, event: 'Jan Jansen called' },
      { ...RECEIVED, statusTo: 'rejected because the phone was 0612345678' },
    ]) {
      const error = await errorOf(() => append(leadId, [entry]))
      assert.include(error.message, 'malformed audit entry')
    }
    assert.deepEqual(await audit.entriesFor(null, leadId), [])
  })

  test('a rolled-back transaction leaves no entry and no head', async ({ assert }) => {
    const leadId = uuidv7()
    await errorOf(() =>
      db.transaction(async (trx) => {
        await audit.append(trx, {
          publisherId: PUBLISHER,
          leadId,
          environment: 'live',
          entries: [RECEIVED],
        })
        throw new Error('the lead could not be stored')
      })
    )
    assert.deepEqual(await audit.entriesFor(null, leadId), [])
    assert.isNull(await db.from('audit.chain_heads').where('lead_id', leadId).first())
  })
})

test.group('Audit chain / concurrency', () => {
  test('concurrent appends to one lead make one gapless chain without a fork', async ({
    assert,
  }) => {
    const leadId = uuidv7()
    await append(leadId, [RECEIVED])
    const writers = Array.from({ length: 12 }, () => append(leadId, [VALIDATED, ACCEPTED]))
    await Promise.all(writers)

    const entries = await audit.entriesFor(null, leadId)
    assert.deepEqual(
      entries.map((entry) => entry.lead_seq),
      Array.from({ length: 25 }, (_, index) => index + 1)
    )
    assert.equal(new Set(entries.map((entry) => entry.prev_hash)).size, 25)
    assert.deepEqual(await audit.verify(leadId), {
      lead_id: leadId,
      valid: true,
      entries: 25,
      broken_at: null,
    })
  })

  test('concurrent first appends to a brand-new lead start one chain', async ({ assert }) => {
    const leadId = uuidv7()
    await Promise.all(Array.from({ length: 8 }, () => append(leadId, [RECEIVED, CONSENTED])))
    const verification = await audit.verify(leadId)
    assert.deepEqual(verification, { lead_id: leadId, valid: true, entries: 16, broken_at: null })
    assert.lengthOf(await db.from('audit.chain_heads').where('lead_id', leadId), 1)
  })

  test('different leads append in parallel, each from seq 1', async ({ assert }) => {
    const leads = Array.from({ length: 10 }, () => uuidv7())
    await Promise.all(leads.map((leadId) => append(leadId, [RECEIVED, CONSENTED, VALIDATED])))
    for (const leadId of leads) {
      const entries = await audit.entriesFor(null, leadId)
      assert.deepEqual(
        entries.map((entry) => entry.lead_seq),
        [1, 2, 3]
      )
    }
  })

  test('the database refuses a second entry with the same lead_seq', async ({ assert }) => {
    const leadId = await trail()
    const [first] = await audit.entriesFor(null, leadId)
    const { id, ...copy } = first
    const error = await errorOf(() =>
      db.table('audit.entries').insert({ ...copy, ts: new Date(copy.ts), actor: 'api_key:forger' })
    )
    assert.equal(error.code, '23505')
    assert.include(error.message, 'entries_lead_seq_unique')
    assert.lengthOf(await audit.entriesFor(null, leadId), 5)
  })
})

test.group('Audit chain / append-only', () => {
  test('the application role can neither update, delete nor truncate entries', async ({
    assert,
  }) => {
    const leadId = await trail()
    const attempts = [
      () => db.from('audit.entries').where('lead_id', leadId).update({ actor: 'api_key:forger' }),
      () => db.from('audit.entries').where('lead_id', leadId).delete(),
      () => db.rawQuery('TRUNCATE audit.entries CASCADE'),
      () => db.from('audit.consent_evidence').where('lead_id', leadId).delete(),
      () => db.from('audit.consent_texts').update({ text: 'changed' }),
    ]
    for (const attempt of attempts) {
      const error = await errorOf(attempt)
      assert.equal(error.code, '42501', error.message)
    }
    assert.isTrue(await isValid(leadId))
  })

  test('the application role cannot disable the triggers, alter or drop the tables', async ({
    assert,
  }) => {
    for (const sql of [
      'ALTER TABLE audit.entries DISABLE TRIGGER entries_no_change',
      'ALTER TABLE audit.entries DISABLE TRIGGER ALL',
      'ALTER TABLE audit.entries DROP CONSTRAINT entries_lead_seq_unique',
      'DROP TABLE audit.entries CASCADE',
      'DROP SCHEMA audit CASCADE',
      'CREATE TABLE audit.shadow (id int)',
      'SET ROLE leadgate_audit',
    ]) {
      const error = await errorOf(() => db.rawQuery(sql))
      assert.equal(error.code, '42501', `${sql}: ${error.message}`)
    }
  })

  test('even the superuser is stopped by the triggers', async ({ assert }) => {
    const leadId = await trail()
    await asAdmin(async (client) => {
      for (const sql of [
        'UPDATE audit.entries SET actor = $1 WHERE lead_id = $2',
        'DELETE FROM audit.entries WHERE lead_id = $2 AND actor <> $1',
      ]) {
        const error = await errorOf(() => client.query(sql, ['api_key:forger', leadId]))
        assert.include(error.message, 'append-only')
      }
      const truncate = await errorOf(() =>
        client.query('TRUNCATE audit.log_positions, audit.entries')
      )
      assert.include(truncate.message, 'append-only')
    })
    assert.isTrue(await isValid(leadId))
  })

  test('the audit tables belong to leadgate_audit; the app holds SELECT and INSERT only (and UPDATE on chain_heads)', async ({
    assert,
  }) => {
    const owners = await db.rawQuery(
      "SELECT tablename, tableowner FROM pg_tables WHERE schemaname = 'audit' ORDER BY tablename"
    )
    for (const row of owners.rows) assert.equal(row.tableowner, 'leadgate_audit', row.tablename)
    assert.sameMembers(
      owners.rows.map((row: any) => row.tablename),
      [
        'chain_heads',
        'checkpoints',
        'consent_evidence',
        'consent_texts',
        'entries',
        'log_positions',
        'merkle_nodes',
        'schema_versions',
        'sealer_runs',
        'sealing_lags',
      ]
    )

    const grants = await db.rawQuery(
      `SELECT table_name, string_agg(privilege_type, ',' ORDER BY privilege_type) AS privileges
       FROM information_schema.role_table_grants
       WHERE table_schema = 'audit' AND grantee = current_user GROUP BY table_name ORDER BY table_name`
    )
    assert.deepEqual(
      Object.fromEntries(grants.rows.map((row: any) => [row.table_name, row.privileges])),
      {
        chain_heads: 'INSERT,SELECT,UPDATE',
        checkpoints: 'INSERT,SELECT',
        consent_evidence: 'INSERT,SELECT',
        consent_texts: 'INSERT,SELECT',
        entries: 'INSERT,SELECT',
        log_positions: 'INSERT,SELECT',
        merkle_nodes: 'INSERT,SELECT',
        sealer_runs: 'INSERT,SELECT',
        sealing_lags: 'INSERT,SELECT',
      }
    )
  })
})

test.group('Audit chain / tamper evidence', () => {
  test('an entry altered by the table owner is named with hash_mismatch', async ({ assert }) => {
    const leadId = await trail()
    await tamper('UPDATE audit.entries SET actor = $1 WHERE lead_id = $2 AND lead_seq = 3', [
      'operator:someone',
      leadId,
    ])

    const entries = await audit.entriesFor(null, leadId)
    assert.equal(entries[2].actor, 'operator:someone')
    assert.deepEqual(await audit.verify(leadId), {
      lead_id: leadId,
      valid: false,
      entries: 5,
      broken_at: { lead_seq: 3, reason: 'hash_mismatch' },
    })
  })

  test('an entry rewritten with a fresh hash breaks the link to the next one', async ({
    assert,
  }) => {
    const leadId = await trail()
    const entries = await audit.entriesFor(null, leadId)
    const forged = { ...entries[1], actor: 'operator:someone' }
    await tamper('UPDATE audit.entries SET actor = $1, hash = $2 WHERE id = $3', [
      forged.actor,
      entryHash(forged),
      forged.id,
    ])

    assert.deepEqual(await brokenAt(leadId), {
      lead_seq: 3,
      reason: 'prev_hash_mismatch',
    })
  })

  test('a deleted entry is a gap; a cut-off tail is caught by the chain head', async ({
    assert,
  }) => {
    const middle = await trail()
    await tamper('DELETE FROM audit.entries WHERE lead_id = $1 AND lead_seq = 2', [middle])
    assert.deepEqual(await brokenAt(middle), { lead_seq: 2, reason: 'seq_gap' })

    const tail = await trail()
    await tamper('DELETE FROM audit.entries WHERE lead_id = $1 AND lead_seq >= 4', [tail])
    const verification = await audit.verify(tail)
    assert.equal(verification.entries, 3)
    assert.deepEqual(verification.broken_at, { lead_seq: 4, reason: 'seq_gap' })
  })

  test('tampering with one lead leaves other trails valid', async ({ assert }) => {
    const [victim, bystander] = [await trail(), await trail()]
    await tamper('UPDATE audit.entries SET status_to = $1 WHERE lead_id = $2 AND lead_seq = 4', [
      'rejected',
      victim,
    ])
    assert.isFalse(await isValid(victim))
    assert.isTrue(await isValid(bystander))
  })
})
