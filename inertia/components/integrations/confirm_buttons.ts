/**
 * The accept button of a destructive confirmation: red, in the palette's darker reds, since
 * Aura's red-500 under white text misses WCAG AA (the theme adjusts only the primary colour).
 */
export function destructive(label: string) {
  return {
    label,
    severity: 'danger',
    style: {
      '--p-button-danger-background': 'var(--p-red-700)',
      '--p-button-danger-border-color': 'var(--p-red-700)',
      '--p-button-danger-hover-background': 'var(--p-red-800)',
      '--p-button-danger-hover-border-color': 'var(--p-red-800)',
      '--p-button-danger-active-background': 'var(--p-red-900)',
      '--p-button-danger-active-border-color': 'var(--p-red-900)',
    },
  }
}

/** The way out of a confirmation, quieter than the action it declines. */
export function decline(label: string) {
  return { label, severity: 'secondary', outlined: true }
}
