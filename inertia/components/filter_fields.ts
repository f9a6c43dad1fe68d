/** A choice of a filter: the value the address keeps and the words shown for it. */
export type FilterChoice = { value: string; label: string }

/** One Select of a filter bar: the filter it sets (`key`) and what it offers. */
export type FilterField = {
  key: string
  label: string
  choices: readonly FilterChoice[]
  /** A search box in the list, for long ones. */
  filter?: boolean
  /** The words of the first choice, no filter; "Every <label>" unless the list has a default. */
  none?: string
}

/** Values as choices, each in its words. */
export const choicesOf = (values: readonly string[], words: (value: string) => string) =>
  values.map((value) => ({ value, label: words(value) }))

/** The `status` filter, each status in its words. */
export const statusField = (
  statuses: readonly string[],
  words: (status: string) => string
): FilterField => ({ key: 'status', label: 'Status', choices: choicesOf(statuses, words) })

/** The `publisher_id` filter, with a search box. */
export const publisherField = (publishers: readonly FilterChoice[]): FilterField => ({
  key: 'publisher_id',
  label: 'Publisher',
  choices: publishers,
  filter: true,
})

/** The `environment` filter of a list that shows live unless asked for the sandbox. */
export const environmentField: FilterField = {
  key: 'environment',
  label: 'Environment',
  choices: [{ value: 'sandbox', label: 'Sandbox' }],
  none: 'Live',
}
