import { createBuyer } from '#tests/support/fixtures'
import { Receiver, type Received } from '#tests/support/webhooks'
import { createRule } from '#tests/functional/routing/routing_support'
import { createDestination } from '#tests/functional/selling/selling_support'

export type BuyerSystem = { bid: number | null; accept?: boolean; delayMs?: number }

/** A buyer's system answering pings with its bid and posts with its verdict. */
export async function buyerSystem(behaviour: BuyerSystem) {
  return Receiver.start((request: Received) => {
    const json = (body: unknown) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      delayMs: behaviour.delayMs,
    })
    if (request.url.endsWith('/ping')) {
      return behaviour.bid === null
        ? json({ bid: 0 })
        : json({ bid: behaviour.bid, bid_id: `bid-${behaviour.bid}` })
    }
    return behaviour.accept === false
      ? json({ result: 'rejected', reason: 'Out of area' })
      : json({ result: 'ok', id: `${request.json?.bid_id}-sold` })
  })
}

export async function pingPostBuyer(system: Receiver, overrides: Record<string, unknown> = {}) {
  const buyer = await createBuyer()
  const destination = await createDestination(buyer.id, 'http', {
    http: {
      method: 'POST',
      url: `${system.url}/post`,
      content_type: 'json',
      template: '{"email": "{{ contact.email }}", "bid_id": {{ bid_id | json }}}',
      timeout_ms: 2000,
      response: {
        accepted: { path: '$.result', equals: 'ok' },
        rejected: { path: '$.result', equals: 'rejected' },
        reason_path: '$.reason',
        buyer_lead_id_path: '$.id',
      },
      ping: {
        url: `${system.url}/ping`,
        template:
          '{"postal": {{ contact.postal_code | json }}, "country": {{ contact.country | json }}, "age": {{ attributes.age | json }}, "source": {{ provenance.source | json }}}',
        bid_path: '$.bid',
        bid_id_path: '$.bid_id',
        timeout_ms: 500,
      },
      ...overrides,
    },
  })
  return { buyer, destination }
}

export function pingRule(
  world: { label: { id: string } },
  party: { buyer: { id: string }; destination: { id: string } },
  overrides: Record<string, unknown> = {}
) {
  return createRule({
    buyerId: party.buyer.id,
    labelIds: [world.label.id],
    destinationId: party.destination.id,
    mode: 'ping_post',
    priceCents: 0,
    payoutCents: 0,
    payoutSharePercent: 60,
    ...overrides,
  })
}

/** Buyers' systems started by a group's tests, each closed after its test. */
export function buyerSystemsOf(group: { each: { teardown: (hook: () => Promise<void>) => void } }) {
  const systems: Receiver[] = []
  group.each.teardown(async () => {
    await Promise.all(systems.splice(0).map((system) => system.close()))
  })
  return async (behaviour: BuyerSystem) => {
    const system = await buyerSystem(behaviour)
    systems.push(system)
    return system
  }
}
