import { readdir } from 'node:fs/promises'
import { pathToFileURL } from 'node:url'
import app from '@adonisjs/core/services/app'
import { transaction } from '#services/sql/transaction'
import type { TransactionClientContract } from '@adonisjs/lucid/types/database'

type TenantMigration = (trx: TransactionClientContract) => Promise<void>
type Tenant = { schemaName: string }

/**
 * One Postgres schema per publisher. Tenant work always runs in a transaction
 * that starts with SET LOCAL search_path, so the setting dies with the
 * transaction and a pooled connection never carries a tenant's path onwards.
 */
export default class TenancyService {
  static schemaNameFor(publisherId: string) {
    return `pub_${publisherId.replaceAll('-', '')}`
  }

  /**
   * Runs `work` inside the publisher's schema. Unqualified table names resolve
   * to the tenant first and `public` second; another tenant's schema is never
   * on the path.
   */
  async run<T>(tenant: Tenant, work: (trx: TransactionClientContract) => Promise<T>): Promise<T> {
    return transaction(async (trx) => {
      await this.enter(trx, tenant)
      return work(trx)
    })
  }

  /**
   * `run` for a caller whose own first statement enters the schema: a
   * database function that calls set_config('search_path', ..., true), the
   * same as SET LOCAL, with `tenant` as the schema name. One round trip
   * fewer; `work` gets what `enter` answered.
   */
  async runEntered<E, T>(
    tenant: Tenant,
    enter: (trx: TransactionClientContract, schemaName: string) => Promise<E>,
    work: (trx: TransactionClientContract, entered: E) => Promise<T>
  ): Promise<T> {
    const schemaName = safeSchemaName(tenant.schemaName)
    return transaction(async (trx) => work(trx, await enter(trx, schemaName)))
  }

  async enter(trx: TransactionClientContract, tenant: Tenant) {
    await trx.rawQuery(`SET LOCAL search_path TO ${quoteIdent(tenant.schemaName)}, public`)
  }

  /**
   * Creates the schema and brings it up to date, inside the caller's
   * transaction so a failed provisioning leaves nothing behind.
   */
  async provision(trx: TransactionClientContract, tenant: Tenant) {
    await trx.rawQuery(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(tenant.schemaName)}`)
    return this.migrateWithin(trx, tenant)
  }

  /** Brings one tenant schema up to date in its own transaction. */
  async migrate(tenant: Tenant) {
    return transaction((trx) => this.migrateWithin(trx, tenant))
  }

  async migrateWithin(trx: TransactionClientContract, tenant: Tenant) {
    // One migrator per schema at a time, across processes.
    await trx.rawQuery('SELECT pg_advisory_xact_lock(hashtext(?))', [
      `tenant-migrate:${tenant.schemaName}`,
    ])
    await this.enter(trx, tenant)
    await trx.rawQuery(
      'CREATE TABLE IF NOT EXISTS tenant_migrations (name text PRIMARY KEY, migrated_at timestamptz NOT NULL DEFAULT now())'
    )
    const migrated = await trx.from('tenant_migrations').select('name')
    const done = new Set<string>(migrated.map((row: { name: string }) => row.name))
    const applied: string[] = []
    for (const [name, up] of await loadTenantMigrations()) {
      if (done.has(name)) continue
      await up(trx)
      await trx.table('tenant_migrations').insert({ name })
      applied.push(name)
    }
    return applied
  }
}

let migrations: Promise<[string, TenantMigration][]> | undefined

function loadTenantMigrations() {
  migrations ??= (async () => {
    const folder = app.makePath('database/tenant_migrations')
    const entries = await readdir(folder)
    const files = entries.filter((file) => /^\d+_.+\.(ts|js)$/.test(file)).sort()
    return Promise.all(
      files.map(async (file) => {
        const module = await import(pathToFileURL(`${folder}/${file}`).href)
        return [file.replace(/\.(ts|js)$/, ''), module.default as TenantMigration] as [
          string,
          TenantMigration,
        ]
      })
    )
  })()
  return migrations
}

export function quoteIdent(name: string) {
  return `"${safeSchemaName(name)}"`
}

function safeSchemaName(name: string) {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`Refusing unsafe schema name ${JSON.stringify(name)}`)
  }
  return name
}
