import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import { uuidv7 } from 'uuidv7'
import db from '@adonisjs/lucid/services/db'
import TenancyService from '#services/platform/tenancy_service'
import ConsentEvidenceService, {
  commitmentsMatch,
  textDigest,
  type EvidenceInput,
} from '#services/audit/consent_evidence_service'
import { createPublisher, unique } from '#tests/support/fixtures'

const evidence = new ConsentEvidenceService()

function input(overrides: Partial<EvidenceInput> = {}): EvidenceInput {
  return {
    leadId: uuidv7(),
    publisherId: randomUUID(),
    text: `I agree that Acme may contact me about solar panels (${unique('wording')}).`,
    method: 'api',
    pageUrl: 'https://acme.example/solar',
    consentedAt: new Date('2026-06-01T11:58:00.000Z'),
    ip: '203.0.113.9',
    email: 'jan@example.nl',
    phone: '+31612345678',
    ...overrides,
  }
}

function record(values: EvidenceInput) {
  return db.transaction((trx) => evidence.record(trx, values))
}

test.group('Consent evidence / wording', () => {
  test('a wording is stored once under its digest and reused by later leads', async ({
    assert,
  }) => {
    const text = `Ik ga akkoord — ${unique('tekst')}.`
    const first = await record(input({ text }))
    const second = await record(input({ text }))

    assert.equal(first.evidence.text_digest, textDigest(text))
    assert.equal(second.evidence.text_digest, first.evidence.text_digest)
    assert.equal(second.evidence.text_version, first.evidence.text_version)

    const stored = await db.from('audit.consent_texts').where('digest', textDigest(text))
    assert.lengthOf(stored, 1)
    assert.equal(stored[0].text, text)
    assert.deepEqual(await evidence.textFor(textDigest(text)), {
      digest: textDigest(text),
      version: first.evidence.text_version,
      text,
    })
  })

  test('a different wording, even by one character, is a new version', async ({ assert }) => {
    const text = `I agree ${unique('v')}`
    const first = await record(input({ text }))
    const changed = await record(input({ text: `${text}.` }))
    assert.notEqual(changed.evidence.text_digest, first.evidence.text_digest)
    assert.isAbove(changed.evidence.text_version, first.evidence.text_version)
  })

  test('new wordings arriving at once get distinct versions; one wording stays one row', async ({
    assert,
  }) => {
    const shared = `Shared ${unique('wording')}`
    const texts = [
      ...Array.from({ length: 6 }, (_, index) => `Wording ${index} ${unique('w')}`),
      shared,
      shared,
      shared,
    ]
    const results = await Promise.all(texts.map((text) => record(input({ text }))))

    const versions = new Map(
      results.map((result) => [result.evidence.text_digest, result.evidence.text_version])
    )
    assert.equal(versions.size, 7)
    assert.equal(new Set(versions.values()).size, 7)
    assert.lengthOf(await db.from('audit.consent_texts').where('digest', textDigest(shared)), 1)
  })
})

test.group('Consent evidence / commitments', () => {
  test('the evidence row holds how, where and when, and commitments instead of the values', async ({
    assert,
  }) => {
    const values = input({ method: 'form_submit' })
    const { salt, evidence: row } = await record(values)

    assert.lengthOf(salt, 32)
    const stored = await db
      .from('audit.consent_evidence')
      .where('lead_id', values.leadId)
      .firstOrFail()
    assert.equal(stored.publisher_id, values.publisherId)
    assert.equal(stored.method, 'form_submit')
    assert.equal(stored.page_url, 'https://acme.example/solar')
    assert.equal(stored.consented_at.toISOString(), '2026-06-01T11:58:00.000Z')
    for (const column of ['ip_commitment', 'email_commitment', 'phone_commitment']) {
      assert.match(stored[column], /^[0-9a-f]{64}$/)
    }
    assert.equal(
      new Set([stored.ip_commitment, stored.email_commitment, stored.phone_commitment]).size,
      3
    )
    const serialised = JSON.stringify(stored)
    for (const secret of ['203.0.113.9', 'jan@example.nl', '+31612345678', '31612345678']) {
      assert.notInclude(serialised, secret)
    }
    assert.deepEqual(row, stored)
  })

  test('commitments match the right IP, e-mail and phone and nothing else', async ({ assert }) => {
    const values = input()
    const { salt, evidence: row } = await record(values)
    const right = { ip: '203.0.113.9', email: 'jan@example.nl', phone: '+31612345678' }

    assert.isTrue(commitmentsMatch(salt, right, row))
    // The same values in another written form are the same values.
    assert.isTrue(
      commitmentsMatch(salt, { ...right, ip: '::ffff:203.0.113.9', email: ' Jan@Example.NL ' }, row)
    )

    assert.isFalse(commitmentsMatch(salt, { ...right, ip: '203.0.113.10' }, row))
    assert.isFalse(commitmentsMatch(salt, { ...right, email: 'piet@example.nl' }, row))
    assert.isFalse(commitmentsMatch(salt, { ...right, phone: '+31612345679' }, row))
    assert.isFalse(commitmentsMatch(salt, { ...right, phone: null }, row))
    // Swapped fields do not match: the field name is part of each commitment.
    assert.isFalse(
      commitmentsMatch(salt, { ip: right.email, email: right.ip, phone: right.phone }, row)
    )
    // Without the lead's own salt nothing matches.
    const other = await record(input())
    assert.isFalse(commitmentsMatch(other.salt, right, row))
  })

  test('the same person on two leads leaves unlinkable commitments', async ({ assert }) => {
    const first = await record(input())
    const second = await record(input())
    assert.notEqual(first.evidence.email_commitment, second.evidence.email_commitment)
    assert.notEqual(first.evidence.ip_commitment, second.evidence.ip_commitment)
  })

  test('an absent phone has no commitment and matches only an absent phone', async ({ assert }) => {
    const { salt, evidence: row } = await record(input({ phone: null }))
    assert.isNull(row.phone_commitment)
    assert.isTrue(
      commitmentsMatch(salt, { ip: '203.0.113.9', email: 'jan@example.nl', phone: null }, row)
    )
    assert.isFalse(
      commitmentsMatch(
        salt,
        { ip: '203.0.113.9', email: 'jan@example.nl', phone: '+31612345678' },
        row
      )
    )
  })

  test('reads are limited to the publisher', async ({ assert }) => {
    const values = input()
    await record(values)
    assert.isNotNull(await evidence.evidenceFor(values.publisherId, values.leadId))
    assert.isNotNull(await evidence.evidenceFor(null, values.leadId))
    assert.isNull(await evidence.evidenceFor(randomUUID(), values.leadId))
  })

  test('an unknown method is refused by the database, and one lead has one evidence row', async ({
    assert,
  }) => {
    const bad = await record(input({ method: 'telepathy' as any })).catch((error) => error)
    assert.equal(bad.code, '23514')
    const values = input()
    await record(values)
    const twice = await record(values).catch((error) => error)
    assert.equal(twice.code, '23505')
  })
})

test.group('Consent evidence / salt in the publisher schema', () => {
  test('the salt lives in lead_secrets; erasing the lead destroys it, the evidence stays', async ({
    assert,
  }) => {
    const publisher = await createPublisher()
    const tenancy = new TenancyService()
    const leadId = uuidv7()
    const values = input({ leadId, publisherId: publisher.id })

    const { salt } = await tenancy.run(publisher, async (trx) => {
      const now = new Date()
      await trx.table('leads').insert({
        id: leadId,
        publisher_id: publisher.id,
        environment: 'live',
        channel: 'api',
        status: 'accepted',
        contact: JSON.stringify({ email: values.email, phone: values.phone }),
        provenance: JSON.stringify({}),
        consent: JSON.stringify({ given: true }),
        quality_check: JSON.stringify({}),
        created_at: now,
        updated_at: now,
      })
      const recorded = await evidence.record(trx, values)
      await trx.table('lead_secrets').insert({ lead_id: leadId, salt: recorded.salt })
      return recorded
    })

    const stored = await tenancy.run(publisher, (trx) => evidence.saltFor(trx, leadId))
    assert.isTrue(stored!.equals(salt))
    const row = (await evidence.evidenceFor(publisher.id, leadId))!
    assert.isTrue(
      commitmentsMatch(stored!, { ip: values.ip, email: values.email, phone: values.phone }, row)
    )

    await tenancy.run(publisher, (trx) => trx.from('leads').where('id', leadId).delete())
    assert.isNull(await tenancy.run(publisher, (trx) => evidence.saltFor(trx, leadId)))
    assert.isNotNull(await evidence.evidenceFor(publisher.id, leadId))
  })

  test("lead_secrets is in the publisher's schema, not in public", async ({ assert }) => {
    const publisher = await createPublisher()
    const tables = await db.rawQuery(
      "SELECT table_schema FROM information_schema.tables WHERE table_name = 'lead_secrets' AND table_schema IN (?, 'public')",
      [publisher.schemaName]
    )
    assert.deepEqual(tables.rows, [{ table_schema: publisher.schemaName }])
  })
})
