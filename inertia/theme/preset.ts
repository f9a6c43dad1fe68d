import Aura from '@primeuix/themes/aura'
import { definePreset } from '@primeuix/themes'
import { brandPalette } from '~/theme/branding'

/**
 * The design system: PrimeVue's Aura, light only, with the primary colour at shade 500 of a
 * palette whose 500 is readable with white text (see branding.ts). A label's colour replaces
 * the palette at run time; the semantic mapping stays.
 */
export const leadgatePreset = definePreset(Aura, {
  semantic: {
    primary: {
      ...brandPalette(null),
      color: '{primary.500}',
      contrastColor: '#ffffff',
      hoverColor: '{primary.600}',
      activeColor: '{primary.700}',
    },
    text: { mutedColor: '{surface.600}' },
  },
})
