/**
 * True when Postgres refused an insert or update on a unique constraint
 * (SQLSTATE 23505), optionally on one named constraint. A look-up before the
 * insert answers the common case; this answers the race between two requests.
 */
export function isUniqueViolation(error: unknown, constraint?: string) {
  const { code, constraint: violated } = (error ?? {}) as { code?: string; constraint?: string }
  return code === '23505' && (constraint === undefined || violated === constraint)
}
