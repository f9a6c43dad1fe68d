import app from '@adonisjs/core/services/app'
import { defineConfig } from '@adonisjs/lucid'
import services from '#config/services'

const dbConfig = defineConfig({
  connection: 'postgres',
  prettyPrintDebugQueries: !app.inProduction,
  connections: {
    postgres: {
      client: 'pg',
      connection: {
        connectionString: services.databaseUrl.href,
      },
      pool: { min: 0, max: 20 },
      /**
       * Models are written by hand: the generator only sees the public schema,
       * while leads live in one schema per publisher.
       */
      schemaGeneration: { enabled: false },
      migrations: {
        naturalSort: true,
        paths: ['database/migrations'],
      },
      seeders: {
        paths: ['database/seeders'],
      },
    },
  },
})

export default dbConfig
