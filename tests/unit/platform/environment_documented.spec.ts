import { readFileSync } from 'node:fs'
import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'

const read = (path: string) => readFileSync(app.makePath(path), 'utf8')

/** The names start/env.ts validates: each key of the schema it hands to Env.create. */
function validatedNames() {
  return [...read('start/env.ts').matchAll(/^\s+([A-Z][A-Z0-9_]*):\s*Env\.schema\./gm)].map(
    ([, name]) => name
  )
}

/** The names `.env.example` sets or shows commented out (`NAME=…` or `# NAME=…`). */
function exampleNames() {
  return new Set(
    [...read('.env.example').matchAll(/^(?:#\s*)?([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name)
  )
}

/** The part of docs/operations.md that lists the settings. */
function configurationSection() {
  const page = read('docs/operations.md')
  const start = page.indexOf('\n## Configuration\n')
  const end = page.indexOf('\n## ', start + 1)
  return page.slice(start, end)
}

/** Read by something other than start/env.ts: Node itself, and bin/server.ts before the app boots. */
const READ_ELSEWHERE = ['TZ', 'WEB_CONCURRENCY']

test.group('Environment / every setting is documented', () => {
  test('start/env.ts is read as expected', ({ assert }) => {
    const names = validatedNames()
    // A sample from the start, the middle and the end of the schema, so a broken pattern fails.
    assert.includeMembers(names, [
      'NODE_ENV',
      'APP_KEY',
      'WEBHOOK_REQUIRE_HTTPS',
      'REPORT_FOLD_INTERVAL_MS',
    ])
    assert.isAbove(names.length, 80)
  })

  test('each variable of start/env.ts is in .env.example, with a value', ({ assert }) => {
    const example = exampleNames()
    assert.deepEqual(
      validatedNames().filter((name) => !example.has(name)),
      [],
      'missing from .env.example'
    )
  })

  test('each variable of start/env.ts is in the configuration tables of docs/operations.md', ({
    assert,
  }) => {
    const section = configurationSection()
    assert.deepEqual(
      validatedNames().filter((name) => !section.includes(`\`${name}\``)),
      [],
      'missing from docs/operations.md, "Configuration"'
    )
  })

  test('.env.example names no variable that nothing reads', ({ assert }) => {
    const known = new Set([...validatedNames(), ...READ_ELSEWHERE])
    assert.deepEqual(
      [...exampleNames()].filter((name) => !known.has(name)),
      [],
      'in .env.example but not in start/env.ts'
    )
  })
})
