/** A routing rule's caps in the buyer portal's words: which there are and what each counts. */
export const CAP_ROWS = [
  { key: 'hourly', usage: 'hourly', words: 'leads this hour', money: false },
  { key: 'daily', usage: 'daily', words: 'leads today', money: false },
  { key: 'monthly', usage: 'monthly', words: 'leads this month', money: false },
  { key: 'daily_spend_cents', usage: 'daily_spend', words: 'spent today', money: true },
  { key: 'monthly_spend_cents', usage: 'monthly_spend', words: 'spent this month', money: true },
] as const

export type CapKey = (typeof CAP_ROWS)[number]['key']
