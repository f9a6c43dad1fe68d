import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import redis from '@adonisjs/redis/services/main'
import PrivacyRequestService from '#services/privacy/privacy_request_service'

/** A person no other test uses: e-mail, phone and IP of their own. */
export function subject() {
  const n = Math.floor(Math.random() * 9_000_000) + 1_000_000
  return {
    email: `Erase.Me.${randomUUID().slice(0, 8)}@Example.nl`,
    phone: `+3162${n}`,
    ip: `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
  }
}

/** Files a request as the operator and lets the worker's privacy clock run it once. */
export async function fileRequest(client: any, key: string, body: Record<string, unknown>) {
  const filed = await client.post('/v1/privacy/requests').bearerToken(key).json(body)
  filed.assertStatus(202)
  await (await app.container.make(PrivacyRequestService)).runWaiting()
  const done = await client.get(`/v1/privacy/requests/${filed.body().id}`).bearerToken(key)
  done.assertStatus(200)
  return done.body()
}

/**
 * Every row of every table of every schema (as text, so every column of any type) that
 * contains one of `needles`, case-insensitively: `schema.table` → rows found.
 */
export async function findEverywhere(needles: string[]) {
  const tables = await db.rawQuery(
    `SELECT table_schema, table_name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`
  )
  const found: Record<string, number> = {}
  for (const { table_schema: schema, table_name: table } of tables.rows) {
    const result = await db.rawQuery(
      `SELECT count(*)::int AS n FROM "${schema}"."${table}" t WHERE t::text ILIKE ANY(?::text[])`,
      [needles.map((needle) => `%${needle}%`)]
    )
    if (result.rows[0].n > 0) found[`${schema}.${table}`] = result.rows[0].n
  }
  return found
}

/** Every Redis key of the test database whose name or value contains one of `needles`. */
export async function findInRedis(needles: string[]) {
  const found: string[] = []
  const lower = needles.map((needle) => needle.toLowerCase())
  const has = (text: string) => lower.some((needle) => text.toLowerCase().includes(needle))
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 500)
    cursor = next
    for (const key of keys) {
      const type = await redis.type(key)
      const values =
        type === 'string'
          ? [(await redis.get(key)) ?? '']
          : type === 'hash'
            ? Object.values(await redis.hgetall(key))
            : type === 'list'
              ? await redis.lrange(key, 0, -1)
              : type === 'set'
                ? await redis.smembers(key)
                : type === 'zset'
                  ? await redis.zrange(key, 0, -1)
                  : []
      if (has(key) || values.some(has)) found.push(key)
    }
  } while (cursor !== '0')
  return found
}

const OUT = mkdtempSync(join(tmpdir(), 'leadgate-privacy-'))

/** The shipped offline verifier on a saved proof bundle, as an auditor runs it. */
export function verifyBundle(bundle: unknown, ...args: string[]) {
  const path = join(OUT, `${randomUUID()}-bundle.json`)
  writeFileSync(path, JSON.stringify(bundle, null, 2))
  return new Promise<{ code: number; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      [app.makePath('bin/verify_audit.mjs'), path, ...args],
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as any).code as number) : 0, stdout: stdout + stderr })
      }
    )
  })
}
