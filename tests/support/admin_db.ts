import pg from 'pg'
import services from '#config/services'

/** The administrative connection to the test database: the audit schema's side of the fence. */
export async function asAdmin<T>(work: (client: pg.Client) => Promise<T>) {
  const url = new URL(services.adminDatabaseUrl.href)
  url.pathname = `/${services.databaseName}`
  const client = new pg.Client({ connectionString: url.href })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

/** Tampering as the table owner: triggers off, one statement, triggers on, in one transaction. */
export function tamperAudit(sql: string, params: unknown[], table = 'audit.entries') {
  return asAdmin(async (client) => {
    await client.query('BEGIN')
    await client.query('SET LOCAL ROLE leadgate_audit')
    await client.query(`ALTER TABLE ${table} DISABLE TRIGGER USER`)
    await client.query(sql, params)
    await client.query(`ALTER TABLE ${table} ENABLE TRIGGER USER`)
    await client.query('COMMIT')
  })
}
