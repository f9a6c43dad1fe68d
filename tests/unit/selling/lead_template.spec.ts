import { test } from '@japa/runner'
import { DOMParser } from '@xmldom/xmldom'
import { SAMPLE_LEAD, type BuyerLead } from '#services/selling/buyer_lead'
import type { HttpDestinationConfig } from '#services/selling/http_destination'
import {
  TemplateFailure,
  documentProblem,
  renderTemplate,
  templateProblem,
} from '#services/selling/lead_template'

const HOSTILE = `Jo "the \\ quote" O'Neil </name><admin>1</admin> & Co\n\r\tüñï 💡 {{ x }} %26 +`

function lead(changes: Partial<BuyerLead> = {}): BuyerLead {
  return { ...SAMPLE_LEAD, ...changes }
}

const withContact = (contact: Partial<BuyerLead['contact']>) =>
  lead({ contact: { ...SAMPLE_LEAD.contact, ...contact } })

const json = (template: string, value: object = SAMPLE_LEAD) =>
  renderTemplate(template, 'json', value)

function config(changes: Partial<HttpDestinationConfig> = {}): HttpDestinationConfig {
  return {
    method: 'POST',
    url: 'https://buyer.example/leads',
    content_type: 'json',
    template: '{"email": "{{ contact.email }}", "age": {{ attributes.age | json }}}',
    response: { accepted: { status: [200] } },
    ...changes,
  }
}

test.group('Selling / templates / filters', () => {
  test('e164 and national format the phone in the lead’s country, or one named', ({ assert }) => {
    const uk = withContact({ phone: '07911 123456', country: 'GB' })
    assert.equal(json('{{ contact.phone | e164 }}', uk), '+447911123456')
    assert.equal(json('{{ contact.phone | national }}', uk), '07911 123456')
    const us = withContact({ phone: '(201) 555-0123', country: 'US' })
    assert.equal(json('{{ contact.phone | e164 }}', us), '+12015550123')
    assert.equal(json('{{ contact.phone | national }}', us), '(201) 555-0123')
    // A country given to the filter wins over the lead's.
    const french = withContact({ phone: '06 12 34 56 78', country: 'GB' })
    assert.equal(json('{{ contact.phone | e164: "FR" }}', french), '+33612345678')
    // What cannot be read as a phone is given back as it is.
    const odd = withContact({ phone: 'call me', country: 'GB' })
    assert.equal(json('{{ contact.phone | e164 }}', odd), 'call me')
  })

  test('first_name and last_name split contact.name at its first space', ({ assert }) => {
    assert.equal(json('{{ contact.name | first_name }}'), 'Jane')
    assert.equal(json('{{ contact.name | last_name }}'), 'Q. Example')
    const single = withContact({ name: '  Cher ' })
    assert.equal(
      json('[{{ contact.name | first_name }}|{{ contact.name | last_name }}]', single),
      '[Cher|]'
    )
    const none = withContact({ name: null })
    assert.equal(json('[{{ contact.name | first_name }}]', none), '[]')
  })

  test('date writes the named formats and any strftime, in UTC', ({ assert }) => {
    const at = lead({ matched_at: '2026-11-02T23:20:30.000+01:00' })
    const formats: Record<string, string> = {
      'iso': '2026-11-02T22:20:30Z',
      'YYYY-MM-DD': '2026-11-02',
      'DD/MM/YYYY': '02/11/2026',
      'MM/DD/YYYY': '11/02/2026',
      'us': '11/02/2026',
      'unix': String(Date.parse('2026-11-02T22:20:30Z') / 1000),
      '%d.%m.%Y %H:%M': '02.11.2026 22:20',
    }
    for (const [format, expected] of Object.entries(formats)) {
      assert.equal(json(`{{ matched_at | date: "${format}" }}`, at), expected, format)
    }
  })

  test('map translates one value, with a fallback; over a list it is Liquid’s own map', ({
    assert,
  }) => {
    const mapping = '"solar:SOL, heat_pump:HP", "OTHER"'
    assert.equal(json(`{{ attributes.product | map: ${mapping} }}`), 'SOL')
    const heat = lead({ attributes: { product: 'heat_pump' } })
    assert.equal(json(`{{ attributes.product | map: ${mapping} }}`, heat), 'HP')
    const other = lead({ attributes: { product: 'wind' } })
    assert.equal(json(`{{ attributes.product | map: ${mapping} }}`, other), 'OTHER')
    assert.equal(json('{{ attributes.product | map: "solar:SOL" }}', other), 'wind')
    const items = { items: [{ name: 'a' }, { name: 'b' }] }
    assert.equal(json('{{ items | map: "name" | join: "+" }}', items), 'a+b')
  })

  test('default, assign and literal constants are Liquid’s own', ({ assert }) => {
    assert.equal(json('{{ attributes.missing | default: "n/a" }}'), 'n/a')
    assert.equal(
      json('{% assign vendor = "LG-42" %}{{ vendor }}/{{ lead_id | slice: 0, 4 }}'),
      'LG-42/0190'
    )
    assert.equal(json('{{ bid_id }}'), 'sample-bid-1')
  })
})

test.group('Selling / templates / escaping', () => {
  test('a JSON string keeps any lead value inside its quotes', ({ assert }) => {
    const hostile = withContact({ name: HOSTILE, email: '"}, "admin": true, "x": {"' })
    const body = json('{"name": "{{ contact.name }}", "email": "{{ contact.email }}"}', hostile)
    const parsed = JSON.parse(body)
    assert.deepEqual(parsed, { name: HOSTILE, email: '"}, "admin": true, "x": {"' })
  })

  test('| json writes a whole JSON value: strings quoted, objects, null', ({ assert }) => {
    const hostile = lead({ attributes: { note: HOSTILE, age: 42 } })
    const body = json(
      '{"note": {{ attributes.note | json }}, "age": {{ attributes.age | json }}, "all": {{ attributes | json }}, "none": {{ attributes.nothing | json }}}',
      hostile
    )
    assert.deepEqual(JSON.parse(body), {
      note: HOSTILE,
      age: 42,
      all: { note: HOSTILE, age: 42 },
      none: null,
    })
  })

  test('XML text and attributes are entity-escaped; characters XML cannot carry are dropped', ({
    assert,
  }) => {
    const hostile = withContact({ name: `${HOSTILE}\u0001\uD800` })
    const body = renderTemplate(
      '<lead name="{{ contact.name }}"><name>{{ contact.name }}</name></lead>',
      'xml',
      hostile
    )
    const document = new DOMParser().parseFromString(body, 'text/xml')
    const root = document.documentElement!
    assert.equal(root.getElementsByTagName('admin').length, 0)
    // Line breaks and tabs are character references, so neither text nor attribute normalises them away.
    assert.equal(root.getElementsByTagName('name')[0].textContent, `${HOSTILE}\uFFFD`)
    assert.equal(root.getAttribute('name'), `${HOSTILE}\uFFFD`)
  })

  test('form fields and GET queries are URL-encoded', ({ assert }) => {
    const hostile = withContact({ name: HOSTILE, email: 'a@b.c&admin=1' })
    const body = renderTemplate(
      'name={{ contact.name }}&email={{ contact.email }}',
      'form',
      hostile
    )
    const fields = new URLSearchParams(body)
    assert.deepEqual([...fields.keys()], ['name', 'email'])
    assert.equal(fields.get('name'), HOSTILE)
    assert.equal(fields.get('email'), 'a@b.c&admin=1')
  })

  test('a header value loses its line breaks', ({ assert }) => {
    const hostile = withContact({ name: 'Jane\r\nX-Admin: 1' })
    assert.equal(
      renderTemplate('lead {{ contact.name }}', 'header', hostile),
      'lead Jane X-Admin: 1'
    )
  })

  test('| raw opts a value out of escaping (and so out of safety)', ({ assert }) => {
    const hostile = withContact({ name: '"' })
    assert.equal(json('"{{ contact.name | raw }}"', hostile), '"""')
  })
})

test.group('Selling / templates / sandbox', () => {
  test('no file is ever read: include, render and layout are not tags', ({ assert }) => {
    for (const tag of ['{% include "/etc/passwd" %}', '{% render "x" %}', '{% layout "x" %}']) {
      assert.throws(() => json(tag), TemplateFailure)
    }
  })

  test('prototypes stay hidden and unknown filters are refused', ({ assert }) => {
    assert.equal(
      json('[{{ contact.constructor }}{{ contact.__proto__ }}{{ attributes.toString }}]'),
      '[]'
    )
    assert.throws(() => json('{{ contact.email | shell }}'), /undefined filter: shell/)
  })

  test('a runaway template is stopped by its memory and time bounds', ({ assert }) => {
    assert.throws(() => json('{% for i in (1..100000000) %}x{% endfor %}'), /does not render/)
    assert.throws(
      () =>
        json(
          '{% assign s = "xxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s }}'
        ),
      /does not render/
    )
  })

  test('a body larger than 256 KB is not rendered', ({ assert }) => {
    const large = lead({ attributes: { note: 'x'.repeat(10_000) } })
    assert.lengthOf(json('{% for i in (1..25) %}{{ attributes.note }}{% endfor %}', large), 250_000)
    assert.throws(
      () => json('{% for i in (1..27) %}{{ attributes.note }}{% endfor %}', large),
      /renders more than 262144 bytes/
    )
  })
})

test.group('Selling / templates / checked when saved', () => {
  test('a valid destination has no problems', ({ assert }) => {
    assert.deepEqual(templateProblem(config()), [])
    assert.deepEqual(
      templateProblem(
        config({
          content_type: 'xml',
          template:
            '<?xml version="1.0"?><lead><email>{{ contact.email }}</email><kw a="{{ attributes.product }}"/></lead>',
          headers: { 'X-Source': 'leadgate {{ provenance.label }}' },
        })
      ),
      []
    )
    assert.deepEqual(
      templateProblem(
        config({
          method: 'GET',
          template: 'email={{ contact.email }}&p={{ contact.phone | e164 }}',
        })
      ),
      []
    )
  })

  test('a template that does not parse names its field', ({ assert }) => {
    const [problem] = templateProblem(config({ template: '{"a": "{{ contact.email "}' }))
    assert.equal(problem.field, 'http.template')
    assert.equal(problem.code, 'template')
    assert.match(problem.message, /does not parse/)
  })

  test('a body that is not its content type’s document is refused', ({ assert }) => {
    const cases: [Partial<HttpDestinationConfig>, RegExp][] = [
      [{ template: '{"email": {{ contact.email }}}' }, /not valid JSON/],
      [
        { content_type: 'xml', template: '<lead><email>{{ contact.email }}</lead>' },
        /not valid XML/,
      ],
      [{ content_type: 'xml', template: '<lead>A & B</lead>' }, /bare "&"/],
      [{ content_type: 'form', template: 'source=Lead Gate&e={{ contact.email }}' }, /space/],
      [{ method: 'GET', template: '{"q": 1}' }, /not valid form/],
    ]
    for (const [changes, message] of cases) {
      const [problem] = templateProblem(config(changes))
      assert.equal(problem?.code, 'template_document', changes.template)
      assert.match(problem.message, message)
    }
  })

  test('a template a hostile lead could break out of is refused, with the way out', ({
    assert,
  }) => {
    const [unquoted] = templateProblem(
      config({ template: '{"source": {{ provenance.source | json }}, "id": {{ lead_id }}}' })
    )
    // The sample's lead id is no JSON number either: the plain sample already fails.
    assert.equal(unquoted.code, 'template_document')
    const [raw] = templateProblem(config({ template: '{"name": "{{ contact.name | raw }}"}' }))
    assert.equal(raw.code, 'template_escaping')
    assert.match(raw.message, /\| json/)
  })

  test('headers and the ping template are checked too', ({ assert }) => {
    const problems = templateProblem(
      config({
        headers: { 'X-Good': '{{ lead_id }}', 'X-Bad': '{{ lead_id ' },
        ping: {
          url: 'https://buyer.example/ping',
          template: '{"zip": "{{ contact.postal_code }}", "name": {{ contact.name }}}',
          bid_path: '$.bid',
          bid_id_path: '$.id',
        },
      })
    )
    assert.deepEqual(
      problems.map((problem) => problem.field),
      ['http.headers.X-Bad', 'http.ping.template']
    )
  })

  test('documentProblem reads each content type', ({ assert }) => {
    assert.isNull(documentProblem('{"a": [1, "b"]}', 'json'))
    assert.isNotNull(documentProblem('{"a": }', 'json'))
    assert.isNull(documentProblem('<a b="1">t &amp; &#169;</a>', 'xml'))
    assert.isNotNull(documentProblem('<a>', 'xml'))
    assert.isNull(documentProblem('a=1&b=%20&c=', 'form'))
    assert.isNotNull(documentProblem('a=1&b=%2', 'form'))
    assert.isNotNull(documentProblem('a=1&&b=2', 'form'))
  })
})
