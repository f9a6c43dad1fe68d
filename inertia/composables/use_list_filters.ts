import { router, usePage } from '@inertiajs/vue3'
import { reactive } from 'vue'

/**
 * A list page's search, filters and sort live in its URL (shareable, back-button safe).
 * Changing one goes back to the first page.
 */
export function useListFilters<T extends Record<string, string>>(defaults: T) {
  const page = usePage()
  const current = new URL(page.url, 'http://portal.invalid').searchParams
  const filters = reactive({ ...defaults }) as T
  for (const key of Object.keys(defaults) as (keyof T & string)[]) {
    const value = current.get(key)
    if (value !== null) (filters as Record<string, string>)[key] = value
  }

  const apply = () => {
    const query = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''))
    router.get(new URL(page.url, 'http://portal.invalid').pathname, query, {
      preserveState: true,
      replace: true,
    })
  }

  return { filters, apply }
}
