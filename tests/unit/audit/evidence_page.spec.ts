import { test } from '@japa/runner'
import { evidencePage } from '#services/audit/consent_evidence_service'

test.group('Consent evidence / the page it keeps', () => {
  test('the landing page keeps its origin and path, never its query or fragment', ({ assert }) => {
    assert.equal(
      evidencePage('https://solar.example/offer/nl?email=jan%40example.nl&utm_source=x#form'),
      'https://solar.example/offer/nl'
    )
    assert.equal(evidencePage('http://solar.example:8080/'), 'http://solar.example:8080/')
    assert.equal(evidencePage('https://user:secret@solar.example/a'), 'https://solar.example/a')
  })

  test('what is not an http(s) address keeps no page', ({ assert }) => {
    assert.isNull(evidencePage(null))
    assert.isNull(evidencePage(''))
    assert.isNull(evidencePage('our spring campaign'))
    assert.isNull(evidencePage('mailto:jan@example.nl'))
    assert.isNull(evidencePage('javascript:alert(1)'))
  })
})
