import db from '@adonisjs/lucid/services/db'

/**
 * What a refused request must leave alone: the row counts of the given
 * tables and, when given, whole rows. Take one before, one after, compare.
 */
export async function databaseState(tables: string[], rows: { table: string; id: string }[] = []) {
  const counts = Object.fromEntries(
    await Promise.all(
      tables.map(
        async (table) =>
          [table, Number((await db.from(table).count('* as total'))[0].total)] as const
      )
    )
  )
  const snapshots = Object.fromEntries(
    await Promise.all(
      rows.map(
        async ({ table, id }) =>
          [`${table}:${id}`, await db.from(table).where('id', id).first()] as const
      )
    )
  )
  return { counts, rows: snapshots }
}

/** How many publisher schemas exist: a refused create must not leave one behind. */
export async function publisherSchemaCount() {
  const [{ total }] = await db
    .from('information_schema.schemata')
    .where('schema_name', 'like', 'pub\\_%')
    .count('* as total')
  return Number(total)
}
