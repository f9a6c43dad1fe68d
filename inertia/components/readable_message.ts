/**
 * Aura's message text (shade 600 on a shade 50 background) falls short of
 * WCAG AA contrast for success, warn and error; shade 800 reads. Bind it as
 * `:style` on a PrimeVue Message until the preset carries it.
 */
export const READABLE_MESSAGE = {
  '--p-message-success-color': 'var(--p-green-800)',
  '--p-message-warn-color': 'var(--p-yellow-800)',
  '--p-message-error-color': 'var(--p-red-800)',
  '--p-message-info-color': 'var(--p-blue-800)',
}
