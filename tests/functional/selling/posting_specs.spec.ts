import { test } from '@japa/runner'
import db from '@adonisjs/lucid/services/db'
import { Validator } from '@seriousme/openapi-schema-validator'
import User from '#models/user'
import { pointerTo, schemaChecker } from '#tests/support/openapi_schemas'
import { mailTo } from '#tests/support/mailbox'
import { PortalAgent } from '#tests/support/portal_agent'
import {
  createBuyer,
  createKey,
  createPublisher,
  leadBody,
  livePublisher,
  operatorKey,
  unique,
} from '#tests/support/fixtures'

const RULES = {
  required_fields: ['contact.phone', 'attributes.homeowner'],
  postal_code: { required: true, action: 'reject' },
  target_audience: [
    { field: 'contact.country', op: 'in', value: ['NL', 'BE'], action: 'reject' },
    { field: 'attributes.age', op: 'between', value: [18, 75], action: 'reject' },
    { field: 'provenance.source', op: 'in', value: ['facebook', 'google'], action: 'flag' },
  ],
}

const specOf = async (client: any, publisherId: string, key: string) => {
  const response = await client
    .get(`/v1/publishers/${publisherId}/posting-spec`)
    .header('authorization', `Bearer ${key}`)
  response.assertStatus(200)
  return response.body()
}

async function mailsFor(address: string, count = 1) {
  const deadline = Date.now() + 5000
  while (mailTo(address).length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  return mailTo(address)
}

const versionsOf = (publisherId: string) =>
  db.from('posting_spec_versions').where('publisher_id', publisherId).orderBy('version')

test.group('Selling / posting specs', () => {
  test('the spec is an OpenAPI 3.1 document of leads and pings whose schemas hold what the rules require', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher(RULES)
    const spec = await specOf(client, publisher.id, key)

    const validator = new Validator()
    const result = await validator.validate(structuredClone(spec))
    assert.isTrue(result.valid, JSON.stringify(result.errors))
    assert.equal(validator.version, '3.1')
    assert.equal(spec.info.version, '1')
    assert.deepEqual(Object.keys(spec.paths).sort(), ['/v1/leads', '/v1/pings'])
    assert.equal(spec.paths['/v1/leads'].post.operationId, 'submitLead')

    const checker = schemaChecker(spec)
    for (const name of Object.keys(spec.components.schemas)) {
      checker.compile(pointerTo('components', 'schemas', name))
    }
    const lead = checker.compile(pointerTo('components', 'schemas', 'PublisherLead'))
    const ping = checker.compile(pointerTo('components', 'schemas', 'PublisherPing'))
    const example = spec.components.schemas.PublisherLead.examples[0]
    assert.equal(example.publisher, publisher.slug)
    assert.isTrue(lead(example), JSON.stringify(lead.errors))
    assert.isTrue(
      lead(spec.paths['/v1/leads'].post.requestBody.content['application/json'].example)
    )
    assert.isTrue(ping(spec.components.schemas.PublisherPing.examples[0]))
    assert.notProperty(spec.components.schemas.PublisherPing.examples[0].contact, 'phone')

    // What the rules require and allow, and what they do not.
    const without = (path: string) => {
      const copy = structuredClone(example)
      const [group, field] = path.split('.')
      delete copy[group][field]
      return copy
    }
    for (const path of [
      'contact.phone',
      'contact.postal_code',
      'attributes.homeowner',
      'attributes.age',
      'consent.ip',
    ]) {
      assert.isFalse(lead(without(path)), `${path} is required`)
    }
    assert.isTrue(lead(without('contact.email')), 'the e-mail is not required')
    assert.isTrue(lead(without('contact.country')), 'the default country NL is within')
    assert.isFalse(lead({ ...example, contact: { ...example.contact, country: 'DE' } }))
    assert.isFalse(lead({ ...example, attributes: { ...example.attributes, age: 80 } }))
    assert.isFalse(lead({ ...example, publisher: 'someone-else' }))
    // A flag rule is no requirement: it holds the lead for review.
    assert.isTrue(lead({ ...example, provenance: { ...example.provenance, source: 'tiktok' } }))
    assert.isFalse(
      ping({
        ...spec.components.schemas.PublisherPing.examples[0],
        contact: { phone: '+31612345678' },
      })
    )

    // Every reason these rules can give, and the problems that store nothing.
    const reasons = spec.components.schemas.PostingReason.oneOf.map((item: any) => item.const)
    assert.includeMembers(reasons, [
      'missing_field',
      'outside_target_audience',
      'missing_consent',
      'invalid_consent',
      'invalid_phone',
      'review_rejected',
    ])
    assert.notInclude(reasons, 'duplicate')
    const problems = spec.components.schemas.PostingProblem.oneOf.map((item: any) => item.const)
    assert.includeMembers(problems, [
      'validation_failed',
      'contact_not_allowed',
      'ping_mismatch',
      'ping_used',
      'ping_expired',
    ])

    // The example is a lead the intake accepts, for real.
    const delivered = await client
      .post('/v1/leads')
      .header('authorization', `Bearer ${key}`)
      .json({ ...example, consent: leadBody(publisher.slug).consent })
    delivered.assertStatus(201)
    assert.equal(delivered.body().status, 'accepted')
    // A lead the spec refuses is one the rules reject.
    const refused = await client
      .post('/v1/leads')
      .header('authorization', `Bearer ${key}`)
      .json({ ...without('attributes.homeowner'), consent: leadBody(publisher.slug).consent })
    refused.assertStatus(422)
    assert.deepInclude(
      refused.body().reasons.map((reason: any) => [reason.code, reason.field]),
      ['missing_field', 'attributes.homeowner']
    )
  })

  test('reading again keeps the version; a rules change through the API makes version 2, lists its changes and mails the publisher’s users', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher({ phone: { action: 'reject' } })
    const user = await User.create({
      email: `${unique('integrator')}@publisher.example`,
      password: 'a long enough password',
      role: 'publisher_user',
      publisherId: publisher.id,
      buyerId: null,
      permissions: ['read'],
    })
    const operator = await operatorKey()
    const first = await specOf(client, publisher.id, operator)
    const again = await specOf(client, publisher.id, key)
    assert.equal(first.info.version, '1')
    assert.deepEqual(again, first)
    assert.lengthOf(await versionsOf(publisher.id), 1)

    const saved = await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .header('authorization', `Bearer ${operator}`)
      .json({ phone: { action: 'flag' }, required_fields: ['attributes.roof_type'] })
    saved.assertStatus(200)

    const rows = await versionsOf(publisher.id)
    assert.deepEqual(
      rows.map((row) => row.version),
      [1, 2]
    )
    assert.isNull(rows[0].announced_at)
    assert.isNotNull(rows[1].announced_at)
    assert.notEqual(rows[1].digest, rows[0].digest)
    assert.deepEqual(rows[1].basis.rules.required_fields, ['attributes.roof_type'])

    const second = await specOf(client, publisher.id, key)
    assert.equal(second.info.version, '2')
    const changes = second.info['x-leadgate-changes']
    assert.deepInclude(changes, {
      kind: 'rule_added',
      text: 'We reject a lead without a roof type.',
    })
    assert.deepInclude(changes, {
      kind: 'rule_removed',
      text: 'We reject a lead whose phone number is not valid (leaving it out is fine).',
    })
    assert.deepInclude(changes, {
      kind: 'rule_added',
      text: 'We flag a lead whose phone number is not valid (leaving it out is fine).',
    })
    assert.deepEqual(
      second.info['x-leadgate-versions'].map((version: any) => version.version),
      [2, 1]
    )
    const required = second.components.schemas.PublisherLead.allOf.flatMap(
      (member: any) => member.properties?.attributes?.required ?? []
    )
    assert.include(required, 'roof_type')

    const mails = await mailsFor(user.email)
    assert.lengthOf(mails, 1)
    assert.include(mails[0].parts.headers, 'Posting spec 2')
    assert.include(mails[0].parts.text, 'We reject a lead without a roof type.')
    assert.include(mails[0].parts.text, '/publisher/posting-spec')
    // The contact address is mailed only when the publisher has no users.
    const specMails = (address: string) =>
      mailTo(address).filter((mail) => mail.parts.headers.includes('Posting spec'))
    assert.lengthOf(specMails(publisher.contactEmail), 0)

    // Saving the same rules again makes no version and no mail.
    await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .header('authorization', `Bearer ${operator}`)
      .json({ phone: { action: 'flag' }, required_fields: ['attributes.roof_type'] })
      .then((response) => response.assertStatus(200))
    assert.lengthOf(await versionsOf(publisher.id), 2)
    assert.lengthOf(mailTo(user.email), 1)
  })

  test('a publisher without users hears of a new version at its contact address', async ({
    client,
    assert,
  }) => {
    const { publisher, key } = await livePublisher()
    const operator = await operatorKey()
    await specOf(client, publisher.id, key)
    await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .header('authorization', `Bearer ${operator}`)
      .json({
        target_audience: [{ field: 'attributes.age', op: 'gte', value: 18, action: 'reject' }],
      })
      .then((response) => response.assertStatus(200))
    const deadline = Date.now() + 5000
    const specMails = () =>
      mailTo(publisher.contactEmail).filter((mail) => mail.parts.headers.includes('Posting spec 2'))
    while (specMails().length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    assert.lengthOf(specMails(), 1)
    assert.include(specMails()[0].parts.text, 'whose age is missing or is not')
    const spec = await specOf(client, publisher.id, key)
    assert.equal(spec.info.version, '2')
    const age = spec.components.schemas.PublisherLead.allOf.find(
      (member: any) => member.properties?.attributes?.properties?.age
    )
    assert.deepInclude(age.properties.attributes.properties.age, { minimum: 18 })
    assert.deepEqual(age.properties.attributes.required, ['age'])

    // An invited publisher without users hears of its invitation only.
    const invited = await createPublisher()
    await specOf(client, invited.id, operator)
    await client
      .put(`/v1/publishers/${invited.id}/quality-rules`)
      .header('authorization', `Bearer ${operator}`)
      .json({ phone: { action: 'flag' } })
      .then((response) => response.assertStatus(200))
    const rows = await versionsOf(invited.id)
    assert.lengthOf(rows, 2)
    assert.isNull(rows[1].announced_at)
    assert.lengthOf(
      mailTo(invited.contactEmail).filter((mail) => mail.parts.headers.includes('Posting spec')),
      0
    )
  })

  test('another publisher’s spec is not found, a buyer gets none, and a refused read stores no version', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher()
    const other = await livePublisher()
    const buyer = await createBuyer()
    const { secret: buyerKey } = await createKey({ buyerId: buyer.id })

    const asOther = await client
      .get(`/v1/publishers/${publisher.id}/posting-spec`)
      .header('authorization', `Bearer ${other.key}`)
    asOther.assertStatus(404)
    const asBuyer = await client
      .get(`/v1/publishers/${publisher.id}/posting-spec`)
      .header('authorization', `Bearer ${buyerKey}`)
    assert.include([403, 404], asBuyer.status())
    assert.lengthOf(await versionsOf(publisher.id), 0)

    const own = await specOf(client, other.publisher.id, other.key)
    assert.equal(own.info['x-leadgate-publisher'], other.publisher.slug)
    assert.notInclude(JSON.stringify(own), publisher.slug)
  })

  test('the publisher portal shows the spec, its rules and its versions', async ({
    client,
    assert,
  }) => {
    const { publisher } = await livePublisher({ required_fields: ['attributes.roof_type'] })
    const password = 'a long enough password'
    const user = await User.create({
      email: `${unique('reader')}@publisher.example`,
      password,
      role: 'publisher_user',
      publisherId: publisher.id,
      buyerId: null,
      permissions: ['read'],
    })
    const agent = new PortalAgent()
    await agent.signIn(user.email, password)
    const first = await agent.visit('/publisher/posting-spec')
    assert.equal(first.status, 200)
    assert.equal(first.page!.component, 'publisher/posting_spec')
    assert.equal(first.page!.props.spec.info.version, '1')
    assert.equal(first.page!.props.spec.info['x-leadgate-publisher'], publisher.slug)
    assert.include(
      first.page!.props.rules.map((rule: any) => rule.text),
      'We reject a lead without a roof type.'
    )

    await client
      .put(`/v1/publishers/${publisher.id}/quality-rules`)
      .header('authorization', `Bearer ${await operatorKey()}`)
      .json({})
      .then((response) => response.assertStatus(200))
    const second = await agent.visit('/publisher/posting-spec')
    assert.deepEqual(
      second.page!.props.versions.map((version: any) => version.version),
      [2, 1]
    )
    assert.deepInclude(second.page!.props.versions[0].changes, {
      kind: 'rule_removed',
      text: 'We reject a lead without a roof type.',
    })
    assert.match(
      second.page!.props.api_url,
      new RegExp(`/v1/publishers/${publisher.id}/posting-spec$`)
    )
  })
})
