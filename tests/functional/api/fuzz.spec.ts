import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import fc from 'fast-check'
import { createBuyer, createKey, createPublisher, operatorKey } from '#tests/support/fixtures'
import { snapshotDatabase, snapshotDifference } from '#tests/support/db_snapshot'

/**
 * Property-based fuzzing of every served operation of the OpenAPI document,
 * so a route added tomorrow is fuzzed without anyone listing it: random path
 * ids (real, unknown, junk), random values for the declared query parameters
 * plus unknown ones, and bodies that are the documented example with one
 * part replaced by arbitrary JSON, or arbitrary JSON outright. Whoever asks
 * (operator, publisher, buyer, nobody), the answer is never a 5xx, every
 * 4xx is a problem document, and a refused write stores nothing.
 */
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 25)
/** Refused writes per operation checked for "nothing stored" (a snapshot costs a scan of every table). */
const CHECKED_REFUSALS = Number(process.env.FUZZ_CHECKED_REFUSALS ?? 3)
const PROBLEM = /^application\/problem\+json/

type Operation = { method: string; path: string; spec: Record<string, any> }

function servedOperations(document: any): Operation[] {
  return Object.entries(document.paths as Record<string, any>).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method] && !item[method]['x-leadgate-status']).map(
      (method) => ({ method: method.toUpperCase(), path, spec: item[method] })
    )
  )
}

/** Arbitrary JSON with the strings that break naive code: escapes, surrogates, huge numbers. */
const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\ud800', '%', '%zz', '../../etc/passwd', "' OR 1=1 --", '0000-01-01', '1e400'),
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, [], {})
)

/** The example with the value at one path replaced (or removed), or arbitrary JSON instead. */
function bodyFor(example: unknown) {
  const replaced = fc
    .tuple(fc.nat(), nasty, fc.boolean())
    .map(([pick, value, remove]) => mutate(structuredClone(example), pick, value, remove))
  return example && typeof example === 'object'
    ? fc.oneof({ weight: 3, arbitrary: replaced }, { weight: 1, arbitrary: nasty })
    : nasty
}

function mutate(node: any, pick: number, value: unknown, remove: boolean): unknown {
  const paths: Array<[any, string]> = []
  const walk = (current: any) => {
    if (!current || typeof current !== 'object') return
    for (const key of Object.keys(current)) {
      paths.push([current, key])
      walk(current[key])
    }
  }
  walk(node)
  if (paths.length === 0) return value
  const [parent, key] = paths[pick % paths.length]
  if (remove) delete parent[key]
  else parent[key] = value
  return node
}

/** The node a `$ref` names, or the node itself. */
function resolve(document: any, node: any): any {
  if (!node?.$ref) return node
  const target = node.$ref
    .slice(2)
    .split('/')
    .reduce((at: any, key: string) => at?.[key], document)
  return resolve(document, target)
}

/** Dates at and past the edges of what ISO 8601, JavaScript and Postgres agree on. */
const dates = fc.oneof(
  fc.constantFrom(
    '0000-01-01',
    '0000-12-31T23:00:00Z',
    '0001-01-01',
    '9999-12-31T23:59:59-14:00',
    '10000-01-01',
    '2026-02-30',
    '2026-11-25T25:00:00Z'
  ),
  fc
    .date({
      min: new Date(-62_198_755_200_000),
      max: new Date(253_436_860_800_000),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString())
)

/** Values for one query parameter: what its schema says it takes, at its edges, and junk. */
function valueFor(document: any, parameter: any, ids: fc.Arbitrary<string>) {
  const schema = resolve(document, parameter.schema) ?? {}
  const choices: fc.Arbitrary<string>[] = [fc.string({ maxLength: 30 }), nasty.map(String)]
  // What the schema names is tried most: junk alone rarely reaches the code behind a valid format.
  if (schema.enum) choices.push(...Array(3).fill(fc.constantFrom(...schema.enum.map(String))))
  if (schema.format === 'date-time' || schema.format === 'date')
    choices.push(...Array(4).fill(dates))
  if (schema.format === 'uuid') choices.push(ids, ids)
  if (schema.type === 'integer' || schema.type === 'number') {
    choices.push(fc.integer().map(String), fc.constantFrom('-1', '0', '1e308', '9007199254740993'))
  }
  return fc.oneof(...choices)
}

/**
 * A few of the declared query parameters set at once (the rest left out, as
 * a real caller would), sometimes with one the operation does not know: each
 * request then varies little enough to reach the code behind the validator.
 */
function queryFor(document: any, parameters: any[] = [], ids: fc.Arbitrary<string>) {
  const declared = parameters
    .map((parameter) => resolve(document, parameter))
    .filter((parameter) => parameter.in === 'query')
  return fc
    .tuple(fc.subarray(declared, { maxLength: Math.min(3, declared.length) }), fc.boolean())
    .chain(([chosen, stray]) =>
      fc.record(
        Object.fromEntries([
          ...chosen.map((parameter) => [parameter.name, valueFor(document, parameter, ids)]),
          ...(stray ? [['stray', fc.string({ maxLength: 10 })]] : []),
        ])
      )
    )
}

test.group('Fuzz / every operation of the OpenAPI document', () => {
  test('no input produces a 5xx, every refusal is a problem document and stores nothing', async ({
    client,
    assert,
  }) => {
    const document = (await client.get('/v1/openapi.json')).body()
    const publisher = await createPublisher()
    const buyer = await createBuyer()
    const keys = [
      await operatorKey(),
      (await createKey({ publisherId: publisher.id })).secret,
      (await createKey({ buyerId: buyer.id, permissions: ['read'] })).secret,
      null,
    ]
    const ids = fc.oneof(
      fc.constant(publisher.id),
      fc.constant(buyer.id),
      fc.uuid(),
      fc.constantFrom('not-a-uuid', '0', '%E2%80%AE', "1'--", randomUUID().toUpperCase())
    )

    const operations = servedOperations(document)
    assert.isAbove(operations.length, 30)
    const failures: string[] = []
    for (const operation of operations) {
      const example = operation.spec.requestBody?.content?.['application/json']?.example
      const takesBody = Boolean(operation.spec.requestBody)
      const seen = failures.length
      let checked = 0
      await fc
        .assert(
          fc.asyncProperty(
            fc.record({
              id: ids,
              key: fc.constantFrom(...keys),
              query:
                operation.method === 'GET'
                  ? queryFor(document, operation.spec.parameters, ids)
                  : fc.constant({}),
              body: takesBody ? bodyFor(example) : fc.constant(undefined),
            }),
            async ({ id, key, query, body }) => {
              const url = operation.path.replace(/\{[^}]+\}/g, encodeURIComponent(id))
              let request = client.request(url, operation.method as any)
              if (key) request = request.bearerToken(key)
              const cleanQuery = Object.fromEntries(
                Object.entries(query).filter(([, value]) => value !== undefined)
              )
              if (Object.keys(cleanQuery).length > 0) request = request.qs(cleanQuery)
              if (body !== undefined) request = request.unsafeJson(JSON.stringify(body))
              const writes = operation.method !== 'GET' && checked < CHECKED_REFUSALS
              const before = writes ? await snapshotDatabase() : null
              const response = await request
              const status = response.status()
              if (before && status >= 400) {
                checked++
                const changed = snapshotDifference(before, await snapshotDatabase())
                if (Object.keys(changed).length > 0) {
                  failures.push(
                    `${operation.method} ${url} ${JSON.stringify(body)?.slice(0, 200)} → ${status} but changed ${JSON.stringify(changed)}`
                  )
                  return false
                }
              }
              const type = String(response.header('content-type') ?? '')
              if (status >= 500 || (status >= 400 && !PROBLEM.test(type))) {
                failures.push(
                  `${operation.method} ${url} ${JSON.stringify(cleanQuery)} ${JSON.stringify(body)?.slice(0, 200)} → ${status} ${type} ${response.text().slice(0, 200)}`
                )
                return false
              }
              return true
            }
          ),
          {
            numRuns: RUNS_PER_OPERATION,
            seed: Number(process.env.FUZZ_SEED ?? 2026),
            endOnFailure: true,
          }
        )
        // A failed answer is already in `failures`; anything else that stopped the run (a thrown
        // request, a broken generator) is a failure too, never a silent pass.
        .catch((error) => {
          if (failures.length === seen)
            failures.push(`${operation.method} ${operation.path}: ${error}`)
        })
    }
    assert.deepEqual(failures, [])
  }).timeout(180_000)
})
