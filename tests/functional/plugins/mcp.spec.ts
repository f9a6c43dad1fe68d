import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import env from '#start/env'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { createBuyer, createKey, leadBody, livePublisher } from '#tests/support/fixtures'
import { disputable } from '#tests/functional/money/disputes_support'

/** The SDK's own client, over HTTP to the test server, with a Leadgate key. */
async function connect(key: string) {
  const client = new Client({ name: 'leadgate-test-agent', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(
    new URL(`http://${env.get('HOST')}:${env.get('PORT')}/mcp`),
    { requestInit: { headers: { Authorization: `Bearer ${key}` } } }
  )
  await client.connect(transport)
  return client
}

const json = (result: any) => JSON.parse(result.content[0].text)

test.group('Agents / MCP server', () => {
  test('a publisher key submits a lead, looks it up and lists rejections, audited as its agent', async ({
    assert,
    cleanup,
  }) => {
    const { publisher, key } = await livePublisher()
    const agent = await connect(key)
    cleanup(() => agent.close())

    const tools = await agent.listTools()
    assert.includeMembers(
      tools.tools.map((tool) => tool.name),
      ['submit_lead', 'get_lead', 'list_rejections', 'get_kpis']
    )
    assert.isAbove(tools.tools.find((t) => t.name === 'submit_lead')!.description!.length, 100)

    const submitted = await agent.callTool({
      name: 'submit_lead',
      arguments: { lead: leadBody(publisher.slug) },
    })
    assert.isNotTrue(submitted.isError)
    const lead = json(submitted)
    assert.equal(lead.http_status, 201)
    assert.equal(lead.status, 'accepted')

    const rejected = json(
      await agent.callTool({
        name: 'submit_lead',
        arguments: { lead: leadBody(publisher.slug, { contact: { phone: '123' } }) },
      })
    )
    assert.equal(rejected.status, 'rejected')

    const found = json(await agent.callTool({ name: 'get_lead', arguments: { lead_id: lead.id } }))
    assert.equal(found.id, lead.id)
    const rejections = json(await agent.callTool({ name: 'list_rejections', arguments: {} }))
    assert.deepEqual(
      rejections.data.map((row: any) => row.id),
      [rejected.id]
    )
    assert.equal(rejections.data[0].reasons[0].code, 'invalid_phone')

    const [received] = await db
      .from('audit.entries')
      .where('lead_id', lead.id)
      .where('event', 'lead.received')
    const credential = (
      await db.from('api_keys').where('publisher_id', publisher.id).orderBy('created_at').first()
    ).id
    assert.equal(received.actor, `agent:${credential}`)

    const kpis = await agent.callTool({ name: 'get_kpis', arguments: { period: 'today' } })
    assert.isNotTrue(kpis.isError, JSON.stringify(kpis.content))
    assert.isObject(json(kpis))

    // Bad input is the tool's error, with the API's field errors; nothing is stored.
    const invalid = await agent.callTool({
      name: 'submit_lead',
      arguments: { lead: { publisher: publisher.slug } },
    })
    assert.isTrue(invalid.isError)
    assert.equal(json(invalid).status, 422)
  }).timeout(30_000)

  test('a key that may not call a tool is refused, another publisher’s lead is not found, no key no server', async ({
    assert,
    cleanup,
  }) => {
    const buyer = await createBuyer()
    const { secret: buyerKey } = await createKey({ buyerId: buyer.id })
    const readOnly = await livePublisher()
    const { secret: readKey } = await createKey({
      publisherId: readOnly.publisher.id,
      permissions: ['read'],
    })
    const other = await livePublisher()
    const buyerAgent = await connect(buyerKey)
    const readAgent = await connect(readKey)
    const otherAgent = await connect(other.key)
    cleanup(async () => {
      await buyerAgent.close()
      await readAgent.close()
      await otherAgent.close()
    })

    const buyerTry = await buyerAgent.callTool({
      name: 'submit_lead',
      arguments: { lead: leadBody(readOnly.publisher.slug) },
    })
    assert.isTrue(buyerTry.isError)
    assert.equal(json(buyerTry).code, 'tool_not_allowed')
    const readTry = await readAgent.callTool({
      name: 'submit_lead',
      arguments: { lead: leadBody(readOnly.publisher.slug) },
    })
    assert.isTrue(readTry.isError)
    assert.equal(json(readTry).status, 403)

    const body = json(await readAgent.callTool({ name: 'list_rejections', arguments: {} }))
    assert.deepEqual(body.data, [])

    const lead = (
      await fetch(`http://${env.get('HOST')}:${env.get('PORT')}/v1/leads`, {
        method: 'POST',
        headers: { 'authorization': `Bearer ${readOnly.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(leadBody(readOnly.publisher.slug)),
      }).then((response) => response.json() as Promise<any>)
    ).id
    const notMine = await otherAgent.callTool({ name: 'get_lead', arguments: { lead_id: lead } })
    assert.isTrue(notMine.isError)
    assert.equal(json(notMine).status, 404)

    await assert.rejects(async () => {
      const anonymous = new Client({ name: 'anonymous', version: '1.0.0' })
      await anonymous.connect(
        new StreamableHTTPClientTransport(
          new URL(`http://${env.get('HOST')}:${env.get('PORT')}/mcp`)
        )
      )
    })
  }).timeout(30_000)

  test('a buyer opens a dispute on a lead sold to it, its publisher answers, each as its agent; the wrong party is refused', async ({
    assert,
    client,
    cleanup,
  }) => {
    const world = await disputable(client)
    // A refusal is the tool's error result with the HTTP API's status, never a thrown call.
    const refused = (result: any, status: number) => {
      assert.isTrue(result.isError, JSON.stringify(result.content))
      assert.equal(json(result).status, status)
    }
    const buyerAgent = await connect(world.buyerKey)
    const publisherAgent = await connect(world.key)
    cleanup(async () => {
      await buyerAgent.close()
      await publisherAgent.close()
    })

    const tools = (await buyerAgent.listTools()).tools
    for (const name of ['open_dispute', 'answer_dispute']) {
      assert.isAbove(tools.find((tool) => tool.name === name)!.description!.length, 100)
    }

    // The publisher sees the lead but may not return it: the policy refuses, nothing is opened.
    const publisherTry = await publisherAgent.callTool({
      name: 'open_dispute',
      arguments: { lead_id: world.leadId, reason: 'invalid_contact', details: 'Mine.' },
    })
    refused(publisherTry, 403)
    assert.lengthOf(await db.from('disputes').where('lead_id', world.leadId), 0)

    const invalid = await buyerAgent.callTool({
      name: 'open_dispute',
      arguments: { lead_id: world.leadId, reason: 'other' },
    })
    refused(invalid, 422)

    const opened = await buyerAgent.callTool({
      name: 'open_dispute',
      arguments: { lead_id: world.leadId, reason: 'invalid_contact', details: 'Nobody answers.' },
    })
    assert.isNotTrue(opened.isError, JSON.stringify(opened.content))
    const dispute = json(opened)
    assert.equal(dispute.status, 'open')

    // The buyer may not answer its own dispute.
    const buyerAnswer = await buyerAgent.callTool({
      name: 'answer_dispute',
      arguments: { dispute_id: dispute.id, text: 'Fine by me.' },
    })
    refused(buyerAnswer, 403)

    const answered = await publisherAgent.callTool({
      name: 'answer_dispute',
      arguments: { dispute_id: dispute.id, text: 'The applicant confirmed by phone.' },
    })
    assert.isNotTrue(answered.isError, JSON.stringify(answered.content))
    assert.include(JSON.stringify(json(answered)), 'The applicant confirmed by phone.')
    const row = await db.from('disputes').where('id', dispute.id).firstOrFail()
    assert.isNotNull(row.responded_at)

    // Each step is the calling key's agent in the lead's trail.
    const agentsOf = async (where: Record<string, string>) =>
      (await db.from('api_keys').where(where).select('id')).map((key) => `agent:${key.id}`)
    const actors = (await db.from('audit.entries').where('lead_id', world.leadId)).map(
      (entry) => entry.actor
    )
    const buyerAgents = await agentsOf({ buyer_id: world.buyer.id })
    const publisherAgents = await agentsOf({ publisher_id: world.publisher.id })
    assert.isTrue(
      actors.some((actor) => buyerAgents.includes(actor)),
      actors.join(', ')
    )
    assert.isTrue(
      actors.some((actor) => publisherAgents.includes(actor)),
      actors.join(', ')
    )
  }).timeout(30_000)

  test('the MCP door meets the API guards: a NUL byte or a lone surrogate is refused as a problem, and no answer carries SQL or a stack', async ({
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const url = `http://${env.get('HOST')}:${env.get('PORT')}/mcp`
    const before = Number((await db.from('lead_facts').count('* as n'))[0].n)
    // Escaped in the JSON text, as a client sends them.
    for (const name of ['Jan\\u0000Jansen', 'Jan \\ud800 Jansen']) {
      const lead = leadBody(publisher.slug)
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'submit_lead',
          arguments: { ...lead, contact: { ...lead.contact, name: 'X' } },
        },
      }).replace('"name":"X"', `"name":"${name}"`)
      const answer = await fetch(url, {
        method: 'POST',
        headers: {
          'authorization': `Bearer ${key}`,
          'content-type': 'application/json',
          'accept': 'application/json, text/event-stream',
        },
        body,
      })
      const text = await answer.text()
      assert.equal(answer.status, 422, text)
      assert.include(answer.headers.get('content-type') ?? '', 'application/problem+json')
      assert.equal(JSON.parse(text).code, 'validation_failed')
      assert.notMatch(text, /INSERT|SELECT|at .*\.ts:\d+/)
    }
    assert.equal(Number((await db.from('lead_facts').count('* as n'))[0].n), before)
  })
})
