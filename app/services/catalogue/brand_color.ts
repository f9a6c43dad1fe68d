import { colord, extend, type Plugin } from 'colord'
import a11yPlugin from 'colord/plugins/a11y'

// colord's declaration files are CommonJS-shaped for Node's resolution; the ES module's
// default export is the plugin itself, as the bundler's resolution types it.
extend([a11yPlugin as unknown as Plugin])

/**
 * A label's colour as every page and e-mail wears it. The portal (inertia/theme/branding.ts)
 * and the branded e-mails import this one file, so a label looks the same in both.
 */

/** The operator's own colour, for whatever carries no label. */
export const PLATFORM_COLOR = '#0f766e'

/** WCAG 2.2 AA for normal text: white on the colour, and the colour on white. */
const AA = 4.5

/**
 * A label picks any colour; what it brands must stay readable. The colour is darkened in small
 * steps until white text on it (and it on white) reaches AA, so a pale brand keeps its hue.
 */
export function readableBrandColor(color: string | null | undefined) {
  let brand = color && colord(color).isValid() ? colord(color) : colord(PLATFORM_COLOR)
  for (let step = 0; step < 40 && brand.contrast('#ffffff') < AA; step++) {
    brand = brand.darken(0.02)
  }
  return brand.toHex()
}
