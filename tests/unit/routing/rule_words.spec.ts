import { test } from '@japa/runner'
import { criteriaInWords, scheduleInWords } from '#services/routing/rule_words'

test.group('Routing / rules in words', () => {
  test('a schedule reads as days, hours and its zone', ({ assert }) => {
    assert.equal(scheduleInWords(null), 'Always open')
    assert.equal(
      scheduleInWords({
        timezone: 'Europe/Amsterdam',
        windows: [{ days: ['fri', 'mon', 'tue', 'wed', 'thu'], from: '09:00', to: '17:00' }],
      }),
      'Mon–Fri 09:00–17:00 (Europe/Amsterdam)'
    )
    assert.equal(
      scheduleInWords({
        timezone: 'UTC',
        windows: [
          { days: ['mon', 'wed', 'sat', 'sun'], from: '08:00', to: '12:00' },
          { days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], from: '20:00', to: '24:00' },
        ],
      }),
      'Mon, Wed, Sat, Sun 08:00–12:00; Every day 20:00–24:00 (UTC)'
    )
    assert.equal(
      scheduleInWords({
        timezone: 'UTC',
        windows: [{ days: ['fri', 'sat', 'sun', 'tue'], from: '10:00', to: '11:00' }],
      }),
      'Tue, Fri–Sun 10:00–11:00 (UTC)'
    )
  })

  test('criteria read with the quality rules’ own wording', ({ assert }) => {
    assert.deepEqual(
      criteriaInWords([
        { field: 'attributes.age', op: 'between', value: [18, 65] },
        { field: 'contact.country', op: 'in', value: ['NL', 'BE'] },
      ]),
      ['attributes.age between 18 and 65', 'contact.country one of "NL", "BE"']
    )
  })
})
