import type { QueryClientContract } from '@adonisjs/lucid/types/database'

/** The first row a raw query returns, or undefined when it returns none. */
export async function firstRow<Row = Record<string, any>>(
  client: QueryClientContract,
  sql: string,
  bindings: unknown[] = []
): Promise<Row | undefined> {
  const result = await client.rawQuery(sql, bindings as any[])
  return result.rows[0]
}
