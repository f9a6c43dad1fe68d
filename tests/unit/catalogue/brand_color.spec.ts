import { test } from '@japa/runner'
import { colord, extend, type Plugin } from 'colord'
import a11yPlugin from 'colord/plugins/a11y'
import { PLATFORM_COLOR, readableBrandColor } from '#services/catalogue/brand_color'

extend([a11yPlugin as unknown as Plugin])

test.group('Brand colour', () => {
  test('a colour that reads already is kept as it is', ({ assert }) => {
    assert.equal(readableBrandColor('#1d4ed8'), '#1d4ed8')
    assert.equal(readableBrandColor('#0F766E'), '#0f766e')
  })

  test('a pale colour is darkened until white on it reaches AA, keeping its hue', ({ assert }) => {
    for (const pale of ['#ffd700', '#ffffff', '#7dd3fc', '#f0abfc', '#84cc16']) {
      const readable = readableBrandColor(pale)
      assert.isAtLeast(colord(readable).contrast('#ffffff'), 4.5, pale)
      if (colord(pale).toHsl().s > 0) {
        assert.closeTo(colord(readable).toHsl().h, colord(pale).toHsl().h, 2, pale)
      }
    }
  })

  test('no colour, or one that is not a colour, is the platform colour', ({ assert }) => {
    assert.equal(readableBrandColor(null), PLATFORM_COLOR)
    assert.equal(readableBrandColor('not a colour'), PLATFORM_COLOR)
  })
})
