import { readdir, readFile } from 'node:fs/promises'
import pg from 'pg'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import services from '#config/services'
import Publisher from '#models/publisher'
import TenancyService from '#services/platform/tenancy_service'

/**
 * Creates the application role and database when they are missing, then
 * migrates the catalogue and every publisher schema. Safe to run repeatedly.
 */
export default class DatabaseSetupService {
  async prepare(options: { fresh?: boolean } = {}) {
    await this.ensureDatabase(options.fresh ?? false)
    const applied = await this.migrateCatalogue()
    const audit = await this.applyAuditSchema()
    const tenants = await this.migrateTenants()
    return { applied, audit, tenants }
  }

  async ensureDatabase(fresh: boolean) {
    // Dropping is for the test suite and the benchmarks' own databases, never a real one.
    if (fresh && !app.inTest && !services.databaseName.includes('bench')) {
      throw new Error(
        `Refusing to drop "${services.databaseName}": only test and *bench* databases are recreated.`
      )
    }
    const admin = new pg.Client({ connectionString: services.adminDatabaseUrl.href })
    await admin.connect()
    try {
      const role = services.databaseRole
      const name = services.databaseName
      const roleExists = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])
      if (roleExists.rowCount === 0) {
        await admin.query(`CREATE ROLE ${ident(role)} LOGIN NOSUPERUSER NOCREATEROLE`)
      }
      if (fresh) {
        await admin.query(`DROP DATABASE IF EXISTS ${ident(name)} WITH (FORCE)`)
      }
      const dbExists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])
      if (dbExists.rowCount === 0) {
        await admin.query(`CREATE DATABASE ${ident(name)} OWNER ${ident(role)}`)
      }
    } finally {
      await admin.end()
    }
  }

  async migrateCatalogue() {
    const runner = new MigrationRunner(db, app, { direction: 'up', connectionName: 'postgres' })
    await runner.run()
    if (runner.error) {
      throw runner.error
    }
    return Object.keys(runner.migratedFiles)
  }

  /**
   * The `audit` schema belongs to a role the application is not, so it is
   * applied over the administrative connection, one file per transaction,
   * recorded in `audit.schema_versions`. `:app_role` in a file stands for the
   * application's role.
   */
  async applyAuditSchema() {
    const url = new URL(services.adminDatabaseUrl.href)
    url.pathname = `/${services.databaseName}`
    const admin = new pg.Client({ connectionString: url.href })
    await admin.connect()
    const folder = app.makePath('database/audit')
    const listing = await readdir(folder)
    const files = listing.filter((file) => /^\d+_.+\.sql$/.test(file)).sort()
    const applied: string[] = []
    try {
      for (const file of files) {
        const name = file.replace(/\.sql$/, '')
        await admin.query('BEGIN')
        try {
          // One applier per database at a time: a second one waits, then finds the file recorded.
          await admin.query("SELECT pg_advisory_xact_lock(hashtext('leadgate:audit-schema'))")
          if (await this.auditFileApplied(admin, name)) {
            await admin.query('COMMIT')
            continue
          }
          const sql = await readFile(`${folder}/${file}`, 'utf8')
          await admin.query(sql.replaceAll(':app_role', ident(services.databaseRole)))
          await admin.query('INSERT INTO audit.schema_versions (name) VALUES ($1)', [name])
          await admin.query('COMMIT')
          applied.push(name)
        } catch (error) {
          await admin.query('ROLLBACK')
          throw error
        }
      }
    } finally {
      await admin.end()
    }
    return applied
  }

  private async auditFileApplied(admin: pg.Client, name: string) {
    const table = await admin.query(
      "SELECT to_regclass('audit.schema_versions') IS NOT NULL AS present"
    )
    if (!table.rows[0].present) return false
    const row = await admin.query('SELECT 1 FROM audit.schema_versions WHERE name = $1', [name])
    return (row.rowCount ?? 0) > 0
  }

  async migrateTenants() {
    const tenancy = new TenancyService()
    const publishers = await Publisher.query().select('id', 'schema_name').orderBy('id')
    let migrated = 0
    for (const publisher of publishers) {
      const applied = await tenancy.migrate(publisher)
      if (applied.length > 0) migrated++
    }
    return { total: publishers.length, migrated }
  }
}

function ident(name: string) {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`Refusing unsafe identifier ${JSON.stringify(name)}`)
  }
  return `"${name}"`
}
