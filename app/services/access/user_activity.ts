import db from '@adonisjs/lucid/services/db'

export type UserActivity = {
  /** The latest portal sign-in, null when the user never signed in. */
  last_sign_in_at: string | null
  /** Invited and never chose a password (an expired link counts: it can be resent). */
  invitation_pending: boolean
}

/**
 * What a list of users shows beside each: when it last signed in and whether
 * its invitation is still open. Two grouped queries for the whole page.
 */
export async function userActivity(userIds: string[]): Promise<Map<string, UserActivity>> {
  const activity = new Map<string, UserActivity>(
    userIds.map((id) => [id, { last_sign_in_at: null, invitation_pending: false }])
  )
  if (userIds.length === 0) return activity
  const [signIns, invitations] = await Promise.all([
    db
      .from('user_sessions')
      .whereIn('user_id', userIds)
      .groupBy('user_id')
      .select('user_id', db.raw('max(created_at) AS last')),
    db
      .from('account_tokens')
      .whereIn('user_id', userIds)
      .where('purpose', 'invitation')
      .whereNull('used_at')
      .distinct('user_id'),
  ])
  for (const row of signIns) {
    activity.get(row.user_id)!.last_sign_in_at = new Date(row.last).toISOString()
  }
  for (const row of invitations) activity.get(row.user_id)!.invitation_pending = true
  return activity
}
