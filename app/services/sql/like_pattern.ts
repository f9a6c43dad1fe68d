/**
 * `text` as a LIKE / ILIKE pattern that finds it anywhere in a value: a
 * `%`, `_` or `\` typed in a search box matches only itself.
 */
export function containing(text: string) {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`
}
