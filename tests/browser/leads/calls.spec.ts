import { test } from '@japa/runner'
import { livePublisher } from '#tests/support/fixtures'
import { createPortalUser, expectText } from '#tests/browser/helpers'
import { deliver, openPage, signInAs } from '#tests/browser/leads/leads_support'

test.group('Leads / calls on the lead page', () => {
  test('a publisher sees the calls attached to its lead', async ({ browserContext, client }) => {
    const world = await livePublisher()
    const lead = await deliver(client, world)
    const reported = await client
      .post('/v1/calls/ringba')
      .bearerToken(world.key)
      .json({
        inboundCallId: `RGB-${lead.id.slice(-8)}`,
        callStartTime: new Date().toISOString(),
        callLengthInSeconds: 95,
        disposition: 'converted',
        campaignName: 'Solar NL',
        lead_id: lead.id,
      })
    reported.assertStatus(201)
    const user = await createPortalUser('publisher_user', { publisherId: world.publisher.id })

    const page = await browserContext.newPage()
    await signInAs(page, user.email)
    await openPage(page, `/publisher/leads/${lead.id}`)
    await expectText(page, '[data-test="calls"] td', 'ringba')
    await expectText(page, '[data-test="calls"] td', '1:35')
    await expectText(page, '[data-test="calls"] td', 'Solar NL')
  })
})
