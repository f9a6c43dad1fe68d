import { router, usePage } from '@inertiajs/vue3'
import { type ComputedRef, type InjectionKey, computed, inject, provide, reactive } from 'vue'
import type { DataTableSortEvent } from 'primevue/datatable'

/** The keys that order a list rather than filter it. */
const ORDERING = new Set(['sort', 'order'])

/** A list's filters as its filter bar and empty state share them. */
export type ListFilters = {
  filters: Record<string, string>
  apply: () => void
  filtered: ComputedRef<boolean>
  clear: () => void
}
const LIST_FILTERS: InjectionKey<ListFilters> = Symbol('list filters')

/**
 * A list page's search, filters and sort live in its URL (shareable, back-button safe).
 * Changing one goes back to the first page. `filtered` says whether a filter (not the sort) is
 * set; `clear` sets every filter back to its default and shows the list again. The component's
 * filter bar and filtered empty state (useListFiltersOfPage) use the same.
 */
export function useListFilters<T extends Record<string, string>>(defaults: T) {
  const page = usePage()
  const current = new URL(page.url, 'http://portal.invalid').searchParams
  const filters = reactive({ ...defaults }) as T
  const keys = Object.keys(defaults) as (keyof T & string)[]
  for (const key of keys) {
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

  const filterKeys = keys.filter((key) => !ORDERING.has(key))
  const filtered = computed(() => filterKeys.some((key) => filters[key] !== defaults[key]))
  const clear = () => {
    for (const key of filterKeys) filters[key] = defaults[key]
    apply()
  }

  provide(LIST_FILTERS, { filters, apply, filtered, clear })
  return { filters, apply, filtered, clear }
}

/** The filters of the list this component is part of (its page called useListFilters). */
export function useListFiltersOfPage() {
  const list = inject(LIST_FILTERS)
  if (!list) throw new Error('A filter bar needs its page to call useListFilters()')
  return list
}

/**
 * A lazy DataTable's sort, kept in the list's `sort` and `order` filters: `fallback` until the
 * URL says otherwise; by name A to Z first, any other column largest first.
 */
export function useListSort(
  filters: { sort: string; order: string },
  apply: () => void,
  fallback: string
) {
  const sortField = computed(() => filters.sort || fallback)
  const sortOrder = computed(() => {
    if (filters.order) return filters.order === 'asc' ? 1 : -1
    return sortField.value === 'name' ? 1 : -1
  })
  const onSort = (event: DataTableSortEvent) => {
    filters.sort = String(event.sortField ?? fallback)
    filters.order = event.sortOrder === 1 ? 'asc' : 'desc'
    apply()
  }
  return { sortField, sortOrder, onSort }
}
