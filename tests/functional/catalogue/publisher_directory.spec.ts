import { test } from '@japa/runner'
import { publisherBySlug } from '#services/catalogue/publisher_directory'
import { livePublisher } from '#tests/support/fixtures'

test.group('Catalogue / the publisher directory intake reads', () => {
  test('requests arriving together read a publisher once, and a change saved here applies at once', async ({
    assert,
  }) => {
    const { publisher } = await livePublisher()
    const together = await Promise.all(
      Array.from({ length: 20 }, () => publisherBySlug(publisher.slug))
    )
    // One read answered them all: the very same row.
    assert.lengthOf(new Set(together), 1)
    assert.equal(together[0]!.id, publisher.id)
    assert.strictEqual(await publisherBySlug(publisher.slug), together[0])

    publisher.country = 'FR'
    await publisher.save()
    const after = await publisherBySlug(publisher.slug)
    assert.notStrictEqual(after, together[0])
    assert.equal(after!.country, 'FR')
  })

  test('an unknown slug answers null', async ({ assert }) => {
    assert.isNull(await publisherBySlug('no-such-publisher-here'))
  })
})
