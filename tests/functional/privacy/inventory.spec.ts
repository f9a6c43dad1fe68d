import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import {
  DATA_CATEGORIES,
  INVENTORY,
  inventoryKey,
  looksPersonal,
  TEXT_TYPES,
} from '#services/privacy/inventory'
import { createPublisher } from '#tests/support/fixtures'

type ColumnInfo = { key: string; tenant: boolean; column: string; type: string }

/** Every column of every schema (each publisher's, public, audit) as `tenant|schema.table.column`. */
async function columns(): Promise<ColumnInfo[]> {
  await createPublisher()
  const result = await db.rawQuery(
    `SELECT table_schema, table_name, column_name, data_type FROM information_schema.columns
      WHERE table_schema NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
        AND table_name NOT LIKE 'pg\\_%'`
  )
  return result.rows.map((row: any) => ({
    key: inventoryKey(row.table_schema, row.table_name, row.column_name),
    tenant: row.table_schema.startsWith('pub_'),
    column: row.column_name as string,
    type: row.data_type as string,
  }))
}

test.group('Privacy / the inventory of personal data', () => {
  test('every column that looks like contact data, and every tenant document, has a category', async ({
    assert,
  }) => {
    const uncategorised = new Set<string>()
    for (const { key, tenant, column, type } of await columns()) {
      if (!TEXT_TYPES.has(type)) continue
      const suspect = looksPersonal(column) || (tenant && ['jsonb', 'json', 'text'].includes(type))
      if (suspect && !INVENTORY[key]) uncategorised.add(key)
    }
    assert.deepEqual(
      [...uncategorised].sort(),
      [],
      'add these to app/services/privacy/inventory.ts (and docs/privacy.md), and teach retention and erasure about them'
    )
  })

  test('every entry names a column that exists and a known category', async ({ assert }) => {
    const existing = new Set((await columns()).map((column) => column.key))
    for (const [key, entry] of Object.entries(INVENTORY)) {
      assert.isTrue(existing.has(key), `${key} is in the inventory but not in the database`)
      assert.include(DATA_CATEGORIES, entry.category, key)
    }
  })

  test('docs/privacy.md lists every entry', async ({ assert }) => {
    const doc = await readFile(app.makePath('docs/privacy.md'), 'utf8')
    for (const key of Object.keys(INVENTORY)) {
      if (INVENTORY[key].category === 'not_personal') continue
      assert.include(doc, `\`${key}\``, `docs/privacy.md does not list ${key}`)
    }
  })

  test('the names that give contact data away are recognised', ({ assert }) => {
    for (const name of ['email', 'contact_email', 'phone_key', 'full_name', 'ip', 'raw', 'body'])
      assert.isTrue(looksPersonal(name), name)
    for (const name of ['status', 'created_at', 'description', 'shipping']) {
      assert.isFalse(looksPersonal(name), name)
    }
  })
})
