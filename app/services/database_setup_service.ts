import pg from 'pg'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { MigrationRunner } from '@adonisjs/lucid/migration'
import services from '#config/services'
import Publisher from '#models/publisher'
import TenancyService from '#services/tenancy_service'

/**
 * Creates the application role and database when they are missing, then
 * migrates the catalogue and every publisher schema. Safe to run repeatedly.
 */
export default class DatabaseSetupService {
  async prepare(options: { fresh?: boolean } = {}) {
    await this.ensureDatabase(options.fresh ?? false)
    const applied = await this.migrateCatalogue()
    const tenants = await this.migrateTenants()
    return { applied, tenants }
  }

  async ensureDatabase(fresh: boolean) {
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
