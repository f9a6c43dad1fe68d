import { createRequire } from 'node:module'
const require = createRequire(import.meta.url)
const cpuNow = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000 }
import { test } from '@japa/runner'
import { asRecordset } from '#services/intake/intake_service'
import { insertRows } from '#services/sql/insert_together'

test('asRecordset speed', () => {
  const cols = [
    ['publisher_id', 'uuid'], ['lead_id', 'uuid'], ['lead_seq', 'int'], ['event', 'text'], ['ts', 'timestamptz'],
    ['actor', 'text'], ['status_from', 'text'], ['status_to', 'text'], ['prev_hash', 'char(64)'], ['hash', 'char(64)'], ['environment', 'text'],
  ] as const
  const rows = Array.from({ length: 2000 }, (_, i) => ({
    publisher_id: '01a212fa-25bd-799f-81ec-100b30696693', lead_id: '01a212fa-25bd-799f-81ec-100b3069' + String(i).padStart(4, '0'),
    lead_seq: 1 + (i % 4), event: 'lead.received', ts: new Date(), actor: 'publisher:probe', status_from: null, status_to: 'received',
    prev_hash: 'a'.repeat(64), hash: 'b'.repeat(64), environment: 'live',
  }))
  for (let round = 0; round < 5; round++) {
    let t = cpuNow()
    const part = insertRows('audit.entries', cols, rows)
    const built = cpuNow() - t
    t = cpuNow()
    const out = asRecordset(part)
    const converted = cpuNow() - t
    t = cpuNow()
    const sql = part.toSQL().sql
    sql.startsWith('x', 1000)
    console.log('insertRows', built.toFixed(1), 'asRecordset', converted.toFixed(1), 'len', out.toSQL().bindings[0]?.toString().length)
  }
})

test('pieces', () => {
  const n = 22000
  const vals: unknown[] = Array.from({ length: n }, (_, i) => (i % 11 === 4 ? new Date() : i % 11 === 2 ? 3 : 'b'.repeat(64)))
  const pg = require('pg')
  for (let r = 0; r < 3; r++) {
    let t = cpuNow()
    const mapped = vals.map((v) => pg.utils.prepareValue(v))
    const a = cpuNow() - t
    t = cpuNow()
    const rows: unknown[][] = []
    for (let s = 0; s < n; s += 11) rows.push(mapped.slice(s, s + 11))
    const b = cpuNow() - t
    t = cpuNow()
    const js = JSON.stringify(rows)
    const c = cpuNow() - t
    console.log('prepare', a.toFixed(1), 'slice', b.toFixed(1), 'stringify', c.toFixed(1), js.length)
  }
})
