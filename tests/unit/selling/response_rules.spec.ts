import { test } from '@japa/runner'
import type { HttpDestinationConfig, ResponseRules } from '#services/selling/http_destination'
import {
  type BuyerAnswer,
  classifyAnswer,
  moneyToCents,
  responseRulesProblem,
} from '#services/selling/response_rules'
import { regexFinds } from '#services/selling/buyer_regex'

const jsonAnswer = (body: unknown, status = 200): BuyerAnswer => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
})
const xmlAnswer = (body: string, status = 200): BuyerAnswer => ({
  status,
  contentType: 'text/xml',
  body,
})
const textAnswer = (body: string, status = 200): BuyerAnswer => ({
  status,
  contentType: 'text/plain',
  body,
})

/** A buyer that answers 200 with `{"status": "...", "id", "reason", "price"}`. */
const JSON_RULES: ResponseRules = {
  accepted: { status: [200, 201], path: '$.status', equals: 'accepted' },
  rejected: { path: '$.status', equals: 'rejected' },
  duplicate: { path: '$.status', matches: '(?i)^dup' },
  reason_path: '$.reason',
  buyer_lead_id_path: '$.lead.id',
  price_path: '$.price',
}

function config(response: ResponseRules, ping?: HttpDestinationConfig['ping']) {
  return {
    method: 'POST',
    url: 'https://buyer.example/leads',
    content_type: 'json',
    template: '{}',
    response,
    ping,
  } satisfies HttpDestinationConfig
}

test.group('Selling / response rules / classify', () => {
  test('a JSON answer is accepted with the buyer’s lead id and price', ({ assert }) => {
    const read = classifyAnswer(
      JSON_RULES,
      jsonAnswer({ status: 'accepted', lead: { id: 'B-17' }, price: 1250 }, 201)
    )
    assert.deepEqual(read, {
      outcome: 'accepted',
      reason: null,
      buyer_lead_id: 'B-17',
      price_cents: 1250,
      matched_rule: 'accepted',
      notes: [],
    })
  })

  test('rejected and duplicate carry the reason; duplicate is tried first', ({ assert }) => {
    const rejected = classifyAnswer(
      JSON_RULES,
      jsonAnswer({ status: 'rejected', reason: 'Out of area\n(postcode)' })
    )
    assert.equal(rejected.outcome, 'rejected')
    assert.equal(rejected.reason, 'Out of area (postcode)')
    assert.isNull(rejected.buyer_lead_id)

    const duplicate = classifyAnswer(
      JSON_RULES,
      jsonAnswer({ status: 'DUPLICATE', reason: 'seen', lead: { id: 'B-1' } })
    )
    assert.equal(duplicate.outcome, 'duplicate')
    assert.equal(duplicate.buyer_lead_id, 'B-1')

    // Every rule holds for a bare 200: the order decides.
    const everything: ResponseRules = {
      accepted: { status: [200] },
      rejected: { status: [200] },
      duplicate: { status: [200] },
    }
    assert.equal(classifyAnswer(everything, textAnswer('')).matched_rule, 'duplicate')
    const noDuplicate = { ...everything, duplicate: undefined }
    assert.equal(classifyAnswer(noDuplicate, textAnswer('')).matched_rule, 'rejected')
  })

  test('nothing recognised is an error: http_<status> for a non-2xx, else unrecognised_answer', ({
    assert,
  }) => {
    const unknown = classifyAnswer(JSON_RULES, jsonAnswer({ status: 'maybe' }))
    assert.deepInclude(unknown, { outcome: 'error', reason: 'unrecognised_answer' })
    const down = classifyAnswer(JSON_RULES, textAnswer('Service Unavailable', 503))
    assert.deepInclude(down, { outcome: 'error', reason: 'http_503', matched_rule: null })
    // A rule with no status takes any 2xx, and only a 2xx.
    const rules: ResponseRules = { accepted: { path: '$.ok', equals: true } }
    assert.equal(classifyAnswer(rules, jsonAnswer({ ok: true }, 202)).outcome, 'accepted')
    assert.equal(classifyAnswer(rules, jsonAnswer({ ok: true }, 500)).reason, 'http_500')
  })

  test('a status a rule names is read, even a 4xx', ({ assert }) => {
    const rules: ResponseRules = {
      accepted: { status: [200] },
      rejected: { status: [400, 422] },
      duplicate: { status: [409] },
      reason_path: '$.error.message',
    }
    const read = classifyAnswer(rules, jsonAnswer({ error: { message: 'bad zip' } }, 422))
    assert.deepInclude(read, { outcome: 'rejected', reason: 'bad zip' })
    assert.equal(classifyAnswer(rules, jsonAnswer({}, 409)).outcome, 'duplicate')
  })

  test('an XML answer is read by XPath: elements, attributes, namespaces', ({ assert }) => {
    const rules: ResponseRules = {
      accepted: { path: '/response/result', equals: 'success' },
      rejected: { path: "//*[local-name()='Status']", equals: 'Rejected' },
      reason_path: "//*[local-name()='Reason']",
      buyer_lead_id_path: '/response/lead/@id',
      price_path: 'string(/response/price)',
      price_unit: 'currency',
    }
    const accepted = classifyAnswer(
      rules,
      xmlAnswer(
        '<?xml version="1.0"?><response><result>success</result><lead id="X-9"/><price>12.50</price></response>'
      )
    )
    assert.deepInclude(accepted, { outcome: 'accepted', buyer_lead_id: 'X-9', price_cents: 1250 })
    const soap = classifyAnswer(
      rules,
      xmlAnswer(
        '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><r:Answer xmlns:r="urn:buyer"><r:Status>Rejected</r:Status><r:Reason>Capped</r:Reason></r:Answer></s:Body></s:Envelope>'
      )
    )
    assert.deepInclude(soap, { outcome: 'rejected', reason: 'Capped' })
  })

  test('a body that is neither JSON nor XML is read by matches or equals alone', ({ assert }) => {
    const rules: ResponseRules = {
      accepted: { matches: '^OK\\b' },
      rejected: { matches: '(?i)reject' },
      duplicate: { equals: 'DUP' },
    }
    assert.equal(classifyAnswer(rules, textAnswer('OK 12345')).outcome, 'accepted')
    assert.equal(classifyAnswer(rules, textAnswer('Lead REJECTED: age')).outcome, 'rejected')
    assert.equal(classifyAnswer(rules, textAnswer(' DUP\n')).outcome, 'duplicate')
    assert.equal(classifyAnswer(rules, textAnswer('NOK')).reason, 'unrecognised_answer')
    // A JSON path finds nothing in text (nor an XPath in JSON): that rule does not hold.
    const paths: ResponseRules = { accepted: { path: '$.ok' }, rejected: { path: '/no' } }
    assert.equal(classifyAnswer(paths, textAnswer('{"ok": true')).reason, 'unrecognised_answer')
    assert.equal(classifyAnswer(paths, jsonAnswer({ no: 1 })).reason, 'unrecognised_answer')
  })

  test('a path alone holds when it finds a value that is not empty or false', ({ assert }) => {
    const rules: ResponseRules = { accepted: { path: '$.lead_id' } }
    assert.equal(classifyAnswer(rules, jsonAnswer({ lead_id: 7 })).outcome, 'accepted')
    for (const value of ['', false, null]) {
      assert.equal(classifyAnswer(rules, jsonAnswer({ lead_id: value })).outcome, 'error')
    }
  })

  test('a price that is not believable is dropped with a note', ({ assert }) => {
    const rules: ResponseRules = { accepted: { status: [200] }, price_path: '$.price' }
    for (const price of [-5, 10_000_001, 12.5, 'twelve', '1e3', Number.MAX_VALUE]) {
      const read = classifyAnswer(rules, jsonAnswer({ price }))
      assert.equal(read.outcome, 'accepted', String(price))
      assert.isNull(read.price_cents, String(price))
      assert.lengthOf(read.notes, 1, String(price))
    }
    assert.equal(classifyAnswer(rules, jsonAnswer({ price: '1999' })).price_cents, 1999)
    assert.isEmpty(classifyAnswer(rules, jsonAnswer({})).notes)
  })
})

test.group('Selling / response rules / money', () => {
  test('cents are whole; currency units are rounded to the cent', ({ assert }) => {
    assert.deepEqual(moneyToCents(2500, 'cents'), { cents: 2500, note: null })
    assert.deepEqual(moneyToCents('19.99', 'currency'), { cents: 1999, note: null })
    assert.deepEqual(moneyToCents(0.1 + 0.2, 'currency'), { cents: 30, note: null })
    assert.deepEqual(moneyToCents(100000, 'currency'), { cents: 10_000_000, note: null })
    assert.isNull(moneyToCents(100000.01, 'currency').cents)
    assert.isNull(moneyToCents(25.5, 'cents').cents)
    assert.isNull(moneyToCents(Number.POSITIVE_INFINITY, 'cents').cents)
    assert.deepEqual(moneyToCents(null, 'cents'), { cents: null, note: null })
  })
})

test.group('Selling / response rules / checked when saved', () => {
  test('valid rules and paths have no problems', ({ assert }) => {
    assert.deepEqual(
      responseRulesProblem(
        config(JSON_RULES, {
          url: 'https://buyer.example/ping',
          template: '{}',
          bid_path: '$.bid.amount',
          bid_id_path: "$['bid']['id']",
          expires_in_path: '$.ttl',
        })
      ),
      []
    )
    assert.deepEqual(
      responseRulesProblem(
        config({ accepted: { path: "//*[local-name()='ok']", equals: 1 }, reason_path: '/a/b/@c' })
      ),
      []
    )
  })

  test('a path, pattern or rule that cannot work names its field', ({ assert }) => {
    const problems = responseRulesProblem(
      config(
        {
          accepted: { path: '$.items[0', equals: 'x' },
          rejected: { path: '$.items[?(@.ok)]' },
          duplicate: { matches: '(?=dup)' },
          reason_path: '/r/[',
          buyer_lead_id_path: '$.id',
          price_path: 'not a path ((',
        },
        {
          url: 'https://buyer.example/ping',
          template: '{}',
          bid_path: '$..[',
          bid_id_path: '$.id',
        }
      )
    )
    assert.deepEqual(
      problems.map((problem) => [problem.field, problem.code]),
      [
        ['http.response.duplicate.matches', 'regex'],
        ['http.response.rejected.path', 'path'],
        ['http.response.accepted.path', 'path'],
        ['http.response.reason_path', 'path'],
        ['http.response.price_path', 'path'],
        ['http.ping.bid_path', 'path'],
      ]
    )
    const messages = Object.fromEntries(problems.map((problem) => [problem.field, problem.message]))
    assert.match(messages['http.response.rejected.path'], /filters and scripts/)
    assert.match(messages['http.response.duplicate.matches'], /RE2/)
  })

  test('equals and matches together are refused', ({ assert }) => {
    const [problem] = responseRulesProblem(
      config({ accepted: { path: '$.s', equals: 'a', matches: 'a' } })
    )
    assert.equal(problem.field, 'http.response.accepted.matches')
  })
})

test.group('Selling / response rules / regular expressions', () => {
  test('a pattern that backtracks catastrophically elsewhere runs in linear time', ({ assert }) => {
    // In a backtracking engine each of these takes longer than the universe has existed.
    const input = `${'a'.repeat(60_000)}!`
    assert.isFalse(regexFinds('^(a+)+$', input))
    assert.isFalse(regexFinds('^(a|aa)*$', input))
    assert.isTrue(regexFinds('(?i)A+!', input))
  })
})
