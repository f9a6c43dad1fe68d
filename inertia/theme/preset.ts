import Aura from '@primeuix/themes/aura'
import { definePreset } from '@primeuix/themes'
import { brandPalette } from '~/theme/branding'

/**
 * The design system: PrimeVue's Aura, light only, with the primary colour at shade 500 of a
 * palette whose 500 is readable with white text (see branding.ts). A label's colour replaces
 * the palette at run time; the semantic mapping stays.
 */
/** Severity colours one step darker than Aura's, so every variant reaches AA on white. */
const SEVERITY = { success: 'green', info: 'sky', warn: 'orange', help: 'purple', danger: 'red' }

const solid = (hue: string) => ({
  background: `{${hue}.700}`,
  hoverBackground: `{${hue}.800}`,
  activeBackground: `{${hue}.900}`,
  borderColor: `{${hue}.700}`,
  hoverBorderColor: `{${hue}.800}`,
  activeBorderColor: `{${hue}.900}`,
  color: '#ffffff',
  hoverColor: '#ffffff',
  activeColor: '#ffffff',
  focusRing: { color: `{${hue}.700}`, shadow: 'none' },
})
const each = <T>(make: (hue: string) => T) =>
  Object.fromEntries(Object.entries(SEVERITY).map(([name, hue]) => [name, make(hue)]))

const MESSAGE_HUES = { success: 'green', info: 'blue', warn: 'yellow', error: 'red' }
const message = Object.fromEntries(
  Object.entries(MESSAGE_HUES).map(([name, hue]) => [
    name,
    {
      color: `{${hue}.800}`,
      outlined: { color: `{${hue}.800}`, borderColor: `{${hue}.700}` },
      simple: { color: `{${hue}.800}` },
    },
  ])
)

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
  components: {
    button: {
      colorScheme: {
        light: {
          root: each(solid),
          outlined: {
            ...each((hue) => ({ color: `{${hue}.700}`, borderColor: `{${hue}.300}` })),
            secondary: { color: '{surface.700}' },
          },
          text: {
            ...each((hue) => ({ color: `{${hue}.700}` })),
            secondary: { color: '{surface.700}' },
          },
        },
      },
    },
    message: {
      colorScheme: {
        light: { ...message, secondary: { color: '{surface.700}' } },
      },
    },
    toast: {
      colorScheme: {
        light: Object.fromEntries(
          Object.entries(MESSAGE_HUES).map(([name, hue]) => [name, { color: `{${hue}.800}` }])
        ),
      },
    },
    togglebutton: {
      colorScheme: {
        light: { root: { color: '{surface.700}' }, icon: { color: '{surface.700}' } },
      },
    },
  },
})
