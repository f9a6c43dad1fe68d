/**
 * The first message for a field of a form, whether the server named the field itself or one
 * of its items (`allowed_ips.2`, `events.0`): a list's error shows next to the list.
 */
export function messageFor(errors: object, field: string): string | undefined {
  const bag = errors as Record<string, string | string[] | undefined>
  const key = Object.keys(bag).find((name) => name === field || name.startsWith(`${field}.`))
  const message = key ? bag[key] : undefined
  return Array.isArray(message) ? message[0] : message
}
