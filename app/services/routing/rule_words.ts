import type { WeeklySchedule } from '#models/routing_rule'
import type { AudienceCriterion } from '#services/quality/quality_rules'
import { describe } from '#services/quality/rules/audience_operators'
import { WEEKDAYS } from '#services/routing/schedule'

const DAY_NAMES: Record<(typeof WEEKDAYS)[number], string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
}

/** "Mon–Fri", "Mon, Wed, Sat–Sun", "Every day": runs of three or more days read as a range. */
function daysInWords(days: string[]) {
  const picked = WEEKDAYS.filter((day) => days.includes(day))
  if (picked.length === WEEKDAYS.length) return 'Every day'
  const runs: (typeof WEEKDAYS)[number][][] = []
  for (const day of picked) {
    const run = runs[runs.length - 1]
    if (run && WEEKDAYS.indexOf(run[run.length - 1]) === WEEKDAYS.indexOf(day) - 1) run.push(day)
    else runs.push([day])
  }
  return runs
    .map((run) =>
      run.length >= 3
        ? `${DAY_NAMES[run[0]]}–${DAY_NAMES[run[run.length - 1]]}`
        : run.map((day) => DAY_NAMES[day]).join(', ')
    )
    .join(', ')
}

/** A routing rule's schedule as a person reads it: "Mon–Fri 09:00–17:00 (Europe/Amsterdam)". */
export function scheduleInWords(schedule: WeeklySchedule | null) {
  if (!schedule || schedule.windows.length === 0) return 'Always open'
  const windows = schedule.windows.map(
    (window) => `${daysInWords(window.days)} ${window.from}–${window.to}`
  )
  return `${windows.join('; ')} (${schedule.timezone})`
}

/** Each criterion as "attributes.age between 18 and 65", with the quality rules' own wording. */
export function criteriaInWords(criteria: AudienceCriterion[]) {
  return criteria.map(
    (criterion) => `${criterion.field} ${describe(criterion.op, criterion.value)}`
  )
}
