import { palette, updatePrimaryPalette, type ColorScale } from '@primeuix/themes'
import { colord, extend } from 'colord'
import a11yPlugin from 'colord/plugins/a11y'

extend([a11yPlugin])

/** The operator's own colour, for pages that carry no label. */
export const PLATFORM_COLOR = '#0f766e'

/** WCAG 2.2 AA for normal text: white on the colour and the colour on white. */
const AA = 4.5

/**
 * A label picks any colour; the portal must stay readable. The colour is darkened in small
 * steps until white text on it (and it on white) reaches AA, so a pale brand keeps its hue.
 */
export function readableBrandColor(color: string | null | undefined) {
  let brand = color && colord(color).isValid() ? colord(color) : colord(PLATFORM_COLOR)
  for (let step = 0; step < 40 && brand.contrast('#ffffff') < AA; step++) {
    brand = brand.darken(0.02)
  }
  return brand.toHex()
}

/** The 50–950 shades around a brand colour, the colour itself at 500. */
export function brandPalette(color: string | null | undefined) {
  // Given a hex colour (never a token reference) palette() answers the scale.
  return palette(readableBrandColor(color)) as ColorScale
}

/** Wears a label's colour across every PrimeVue component and the shell. */
export function applyBrandColor(color: string | null | undefined) {
  updatePrimaryPalette(brandPalette(color))
}
