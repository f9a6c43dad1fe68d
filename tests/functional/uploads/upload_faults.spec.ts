import { test } from '@japa/runner'
import { eventually, spawnWorker } from '#tests/support/webhooks'
import {
  csvOf,
  leadsOf,
  tenantRows,
  upload,
  uploadIn,
  uploadingPublisher,
  validRow,
} from '#tests/functional/uploads/upload_support'

/** A real worker with small acceptance batches and a short lock, so a killed one is noticed fast. */
const WORKER_ENV = {
  UPLOAD_ACCEPT_BATCH: '25',
  UPLOAD_LOCK_SECONDS: '2',
  UPLOAD_STALLED_INTERVAL_SECONDS: '1',
}

test.group('Uploads / a worker killed mid-acceptance', () => {
  test('SIGKILL halfway: a new worker finishes, and every row is exactly one lead', async ({
    client,
    assert,
    cleanup,
  }) => {
    const { publisher, key } = await uploadingPublisher()
    let worker = spawnWorker(WORKER_ENV)
    cleanup(() => void (worker.exitCode === null && worker.kill('SIGKILL')))

    const rows = Array.from({ length: 1500 }, () => validRow())
    const created = await upload(client, key, csvOf(rows))
    created.assertStatus(202)
    const id = created.body().id
    const validated = await uploadIn(client, key, id, 'validated', 90_000)
    assert.equal(validated.counts.accepted, 1500)

    ;(await client.post(`/v1/uploads/${id}/accept`).bearerToken(key).json({})).assertStatus(202)
    const partial = await eventually(
      async () => {
        const body = (await client.get(`/v1/uploads/${id}`).bearerToken(key)).body()
        return body.leads_created > 0 ? body : null
      },
      'acceptance under way',
      30_000
    )
    worker.kill('SIGKILL')
    await new Promise((resolve) => worker.once('exit', resolve))
    const atKill = (await client.get(`/v1/uploads/${id}`).bearerToken(key)).body()
    assert.isBelow(atKill.leads_created, 1500, 'killed before the end')
    assert.isAtLeast(atKill.leads_created, partial.leads_created)
    assert.equal(atKill.status, 'accepting')
    // Whatever was committed is whole: every lead has its row, every marked row its lead.
    const leadsAtKill = (await leadsOf(publisher)).length
    assert.equal(leadsAtKill, atKill.leads_created)

    worker = spawnWorker(WORKER_ENV)
    // A worker booting from the TypeScript sources takes a while on a busy machine.
    const done = await uploadIn(client, key, id, 'accepted', 90_000)
    assert.equal(done.leads_created, 1500)
    const leads = (await leadsOf(publisher)) as any[]
    assert.lengthOf(leads, 1500)
    assert.equal(new Set(leads.map((lead) => lead.email_key)).size, 1500)
    const stored = (await tenantRows(publisher, 'upload_rows')) as any[]
    assert.isTrue(stored.every((row) => row.lead_id !== null))
    assert.sameMembers(
      stored.map((row) => row.lead_id),
      leads.map((lead) => lead.id)
    )
  }).timeout(240_000)
})
