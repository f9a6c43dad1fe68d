import { palette, updatePrimaryPalette, type ColorScale } from '@primeuix/themes'
// The one rule for a label's colour, shared with the branded e-mails.
import { readableBrandColor } from '../../app/services/catalogue/brand_color'

export { PLATFORM_COLOR, readableBrandColor } from '../../app/services/catalogue/brand_color'

/** The 50–950 shades around a brand colour, the colour itself at 500. */
export function brandPalette(color: string | null | undefined) {
  // Given a hex colour (never a token reference) palette() answers the scale.
  return palette(readableBrandColor(color)) as ColorScale
}

/** Wears a label's colour across every PrimeVue component and the shell. */
export function applyBrandColor(color: string | null | undefined) {
  updatePrimaryPalette(brandPalette(color))
}
