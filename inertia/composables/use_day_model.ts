import { computed } from 'vue'

type PickerValue = Date | Date[] | (Date | null)[] | null | undefined

/** 'YYYY-MM-DD' as the local date a DatePicker shows (the server reads it as midnight UTC). */
export function dayToDate(value: string) {
  return value ? new Date(`${value}T00:00:00`) : null
}

/** The DatePicker's local date as 'YYYY-MM-DD', the day the user picked; '' when cleared. */
export function dateToDay(value: PickerValue) {
  if (!(value instanceof Date)) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`
}

/**
 * A DatePicker's v-model over a day held as text (a filter in the URL, a
 * form field): the picker sees a Date, the holder keeps 'YYYY-MM-DD'.
 */
export function useDayModel(read: () => string, write: (day: string) => void) {
  return computed({
    get: () => dayToDate(read()),
    set: (value: PickerValue) => write(dateToDay(value)),
  })
}
