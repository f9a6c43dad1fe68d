import { test } from '@japa/runner'
import type { WeeklySchedule } from '#models/routing_rule'
import {
  capPeriods,
  latestMidnight,
  latestOpening,
  withinSchedule,
} from '#services/routing/schedule'

const at = (iso: string) => new Date(iso)

const OFFICE_HOURS: WeeklySchedule = {
  timezone: 'Europe/Amsterdam',
  windows: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }],
}

test.group('Routing / schedules', () => {
  test('no schedule is always open', ({ assert }) => {
    assert.isTrue(withinSchedule(null, at('2027-01-03T03:00:00Z')))
  })

  test('office hours stay office hours across the spring daylight-saving change', ({ assert }) => {
    // Friday before the change: CET, UTC+1.
    assert.isFalse(withinSchedule(OFFICE_HOURS, at('2027-03-26T07:30:00Z')), '08:30 CET')
    assert.isTrue(withinSchedule(OFFICE_HOURS, at('2027-03-26T08:00:00Z')), '09:00 CET')
    // Monday after: CEST, UTC+2. The same UTC time is now inside.
    assert.isTrue(withinSchedule(OFFICE_HOURS, at('2027-03-29T07:30:00Z')), '09:30 CEST')
    assert.isFalse(withinSchedule(OFFICE_HOURS, at('2027-03-29T06:59:00Z')), '08:59 CEST')
    assert.isTrue(withinSchedule(OFFICE_HOURS, at('2027-03-29T14:59:00Z')), '16:59 CEST')
    assert.isFalse(withinSchedule(OFFICE_HOURS, at('2027-03-29T15:00:00Z')), '17:00 is closed')
  })

  test('and across the autumn change', ({ assert }) => {
    assert.isTrue(withinSchedule(OFFICE_HOURS, at('2027-10-29T07:00:00Z')), 'Fri 09:00 CEST')
    assert.isFalse(withinSchedule(OFFICE_HOURS, at('2027-11-01T07:30:00Z')), 'Mon 08:30 CET')
    assert.isTrue(withinSchedule(OFFICE_HOURS, at('2027-11-01T08:00:00Z')), 'Mon 09:00 CET')
  })

  test('the weekday is the rule zone’s, not UTC’s', ({ assert }) => {
    const mondayEvening: WeeklySchedule = {
      timezone: 'America/New_York',
      windows: [{ days: ['mon'], from: '20:00', to: '24:00' }],
    }
    // Tuesday 02:00 UTC is Monday 21:00 in New York.
    assert.isTrue(withinSchedule(mondayEvening, at('2027-01-05T02:00:00Z')))
    // Monday 22:00 UTC is Monday 17:00 in New York: too early.
    assert.isFalse(withinSchedule(mondayEvening, at('2027-01-04T22:00:00Z')))
    // "24:00" closes at midnight: Tuesday 00:00 local is out.
    assert.isFalse(withinSchedule(mondayEvening, at('2027-01-05T05:00:00Z')))
    assert.isTrue(withinSchedule(mondayEvening, at('2027-01-05T04:59:00Z')))
  })

  test('a window through the US spring-forward hour keeps wall-clock times', ({ assert }) => {
    const night: WeeklySchedule = {
      timezone: 'America/New_York',
      windows: [{ days: ['sun'], from: '01:00', to: '03:30' }],
    }
    assert.isTrue(withinSchedule(night, at('2027-03-14T06:30:00Z')), '01:30 EST')
    // 07:10 UTC is 03:10 EDT (02:xx does not exist that night).
    assert.isTrue(withinSchedule(night, at('2027-03-14T07:10:00Z')), '03:10 EDT')
    assert.isFalse(withinSchedule(night, at('2027-03-14T07:30:00Z')), '03:30 EDT')
  })

  test('cap periods are the day and month of the rule’s zone', ({ assert }) => {
    const moment = at('2027-01-31T23:30:00Z')
    const amsterdam = capPeriods('Europe/Amsterdam', moment)
    assert.equal(amsterdam.daily.key, 'day:2027-02-01')
    assert.equal(amsterdam.monthly.key, 'month:2027-02')
    assert.equal(amsterdam.daily.start.toISOString(), '2027-01-31T23:00:00.000Z')
    const utc = capPeriods('UTC', moment)
    assert.equal(utc.daily.key, 'day:2027-01-31')
    assert.equal(utc.monthly.key, 'month:2027-01')
    assert.equal(utc.monthly.end.toISOString(), '2027-02-01T00:00:00.000Z')

    // The spring-forward day is 23 hours long.
    const short = capPeriods('Europe/Amsterdam', at('2027-03-28T12:00:00Z')).daily
    assert.equal(short.end.getTime() - short.start.getTime(), 23 * 3_600_000)
  })

  test('the latest opening of a schedule and the latest midnight of a set of zones', ({
    assert,
  }) => {
    // Monday 08:00 local (CEST): the last opening was Friday 09:00 CET.
    assert.equal(
      latestOpening(OFFICE_HOURS, at('2027-03-29T06:00:00Z'))?.toISOString(),
      '2027-03-26T08:00:00.000Z'
    )
    assert.equal(
      latestOpening(OFFICE_HOURS, at('2027-03-29T07:30:00Z'))?.toISOString(),
      '2027-03-29T07:00:00.000Z'
    )
    // Tokyo's day began at 15:00 UTC, after UTC's own midnight.
    assert.equal(
      latestMidnight(['UTC', 'Asia/Tokyo'], at('2027-01-05T16:00:00Z'))?.toISOString(),
      '2027-01-05T15:00:00.000Z'
    )
    assert.isNull(latestMidnight([], at('2027-01-05T16:00:00Z')))
  })
})
