import { test } from '@japa/runner'
import { rulesInWords } from '#services/quality/rules_in_words'

const texts = (rules: Parameters<typeof rulesInWords>[0]) =>
  rulesInWords(rules, { consentMaxAgeDays: 365 }).map(({ action, text }) => `${action}: ${text}`)

test.group('Quality rules / in words', () => {
  test('the empty document reads as the defaults the intake applies', ({ assert }) => {
    assert.deepEqual(texts({}), [
      "reject: We reject a lead without valid consent: the applicant agreed, and you send the exact wording, the time (within the last 365 days) and the applicant's IP address.",
      'reject: We reject a lead whose phone number is not valid (leaving it out is fine).',
      'reject: We reject a lead whose e-mail address is not valid (leaving it out is fine).',
      'reject: We reject a lead whose postal code is not valid (leaving it out is fine).',
    ])
  })

  test('a required phone that must be valid is one sentence; other required fields each get one', ({
    assert,
  }) => {
    const sentences = texts({
      required_fields: ['contact.phone', 'contact.name', 'attributes.monthly_bill'],
      email: { action: 'flag' },
      consent: { required: true, action: 'reject', max_age_days: 30 },
    })
    assert.include(sentences, 'reject: We reject a lead without a valid phone number.')
    assert.include(sentences, 'reject: We reject a lead without a name.')
    assert.include(sentences, 'reject: We reject a lead without a monthly bill.')
    assert.include(
      sentences,
      'flag: We flag a lead whose e-mail address is not valid (leaving it out is fine).'
    )
    assert.match(sentences[0], /within the last 30 days/)
  })

  test('missing and invalid with different actions are said apart', ({ assert }) => {
    const sentences = texts({
      required_fields: ['contact.email'],
      email: { action: 'flag' },
      postal_code: { required: true, action: 'flag' },
    })
    assert.include(sentences, 'reject: We reject a lead without an e-mail address.')
    assert.include(sentences, 'flag: We flag a lead whose e-mail address is not valid.')
    assert.include(sentences, 'flag: We flag a lead without a valid postal code.')
  })

  test('target audience and duplicates read as the criteria and window they hold', ({ assert }) => {
    const sentences = texts({
      target_audience: [
        { field: 'attributes.age', op: 'between', value: [18, 99], action: 'flag' },
        { field: 'contact.country', op: 'in', value: ['NL', 'BE'], action: 'reject' },
        { field: 'attributes.product', op: 'not_in', value: ['loan'], action: 'reject' },
        { field: 'attributes.homeowner', op: 'eq', value: true },
      ],
      duplicates: { window_days: 30, keys: ['contact.email', 'contact.phone'], action: 'reject' },
    })
    assert.include(
      sentences,
      'flag: We flag a lead whose age is missing or is not between 18 and 99.'
    )
    assert.include(
      sentences,
      'reject: We reject a lead whose country is missing or is not one of "NL", "BE".'
    )
    assert.include(
      sentences,
      'reject: We reject a lead whose product is missing or is one of "loan".'
    )
    assert.include(
      sentences,
      'reject: We reject a lead whose homeowner is missing or is not equal to true.'
    )
    assert.include(
      sentences,
      'reject: We reject a lead whose e-mail address or phone number already arrived in the last 30 days.'
    )
    assert.notInclude(texts({}).join(' '), 'already arrived')
  })
})
