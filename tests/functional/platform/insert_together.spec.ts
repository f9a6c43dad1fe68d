import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { type Column, asRecordset, insertRows, insertTogether } from '#services/sql/insert_together'
import { transaction } from '#services/sql/transaction'

const COLUMNS: Column[] = [
  ['id', 'uuid'],
  ['label', 'text'],
  ['body', 'jsonb'],
  ['at', 'timestamptz'],
  ['salt', 'bytea'],
  ['codes', 'text[]'],
  ['n', 'int'],
]
const ROWS = [
  {
    id: '0190a1b2-0000-7000-8000-000000000001',
    label: 'a "quoted", comma\'d label',
    body: JSON.stringify({ nested: { list: [1, 'two', null] }, text: 'é\n' }),
    at: new Date('2026-11-28T10:11:12.345Z'),
    salt: Buffer.from([0, 1, 254, 255]),
    codes: ['x', 'y,z'],
    n: 42,
  },
  {
    id: '0190a1b2-0000-7000-8000-000000000002',
    label: null,
    body: null,
    at: null,
    salt: null,
    codes: [],
    n: null,
  },
]

test.group('SQL / rows as one JSON parameter (asRecordset)', () => {
  test('writes the same rows, types and answer as the VALUES statement', async ({ assert }) => {
    const written = await transaction(async (trx) => {
      await trx.rawQuery(
        `CREATE TEMP TABLE spec_rows (id uuid, label text, body jsonb, at timestamptz, salt bytea, codes text[], n int, via text) ON COMMIT DROP`
      )
      const answers = []
      for (const [via, shape] of [
        ['values', (part: ReturnType<typeof insertRows>) => part],
        ['recordset', asRecordset],
      ] as const) {
        const insert = shape(insertRows('spec_rows', COLUMNS, ROWS, ' RETURNING id, n'))
        answers.push(await insertTogether(trx, [insert]))
        await trx.rawQuery('UPDATE spec_rows SET via = ? WHERE via IS NULL', [via])
      }
      assert.deepEqual(answers[1], answers[0])
      const rows = await trx.rawQuery(
        `SELECT via, id, label, body, at, encode(salt, 'hex') AS salt, codes, n FROM spec_rows ORDER BY id, via`
      )
      return rows.rows
    })
    assert.lengthOf(written, 4)
    for (let index = 0; index < written.length; index += 2) {
      const { via: recordset, ...fromRecordset } = written[index]
      const { via: values, ...fromValues } = written[index + 1]
      assert.deepEqual([recordset, values], ['recordset', 'values'])
      assert.deepEqual(fromRecordset, fromValues)
    }
    assert.equal(written[0].salt, '0001feff')
    assert.deepEqual(written[0].codes, ['x', 'y,z'])
    assert.isNull(written[2].body)
  })

  test('any other statement passes unchanged, a query builder too', async ({ assert }) => {
    const builder = db.from('public.publishers').select('id').where('slug', 'x')
    assert.strictEqual(asRecordset(builder), builder)
  })
})
