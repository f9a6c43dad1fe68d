import db from '@adonisjs/lucid/services/db'

export const FUNNEL_STEPS = ['views', 'starts', 'submissions', 'blocked'] as const
export type FunnelStep = (typeof FUNNEL_STEPS)[number]

/**
 * Counts one step of a form's funnel for today (UTC). Only numbers: which
 * consumer viewed or started a form is never kept.
 */
export async function countFunnelStep(formId: string, step: FunnelStep, by = 1) {
  await db.rawQuery(
    `INSERT INTO form_counters (form_id, day, ${step}) VALUES (?, (now() AT TIME ZONE 'UTC')::date, ?)
     ON CONFLICT (form_id, day) DO UPDATE SET ${step} = form_counters.${step} + EXCLUDED.${step}`,
    [formId, by]
  )
}

/** A form's funnel summed over the last `days` UTC days, today included. */
export async function funnelOf(formId: string, days = 30) {
  const row = await db
    .from('form_counters')
    .where('form_id', formId)
    .whereRaw(`day > (now() AT TIME ZONE 'UTC')::date - ?::int`, [days])
    .select(
      db.raw('coalesce(sum(views), 0)::int AS views'),
      db.raw('coalesce(sum(starts), 0)::int AS starts'),
      db.raw('coalesce(sum(submissions), 0)::int AS submissions'),
      db.raw('coalesce(sum(blocked), 0)::int AS blocked')
    )
    .first()
  return {
    days,
    views: row.views as number,
    starts: row.starts as number,
    submissions: row.submissions as number,
    blocked: row.blocked as number,
  }
}
