import { test } from '@japa/runner'
import { GroupCommit } from '#services/sql/group_commit'

/** A writer whose calls stay open until the test releases them, recording every group it got. */
function gatedWriter(fail: (items: number[]) => boolean = () => false) {
  const groups: number[][] = []
  const gates: Array<() => void> = []
  const write = (items: number[]) => {
    groups.push(items)
    return new Promise<string[]>((resolve, reject) => {
      gates.push(() =>
        fail(items) ? reject(new Error(`refused ${items}`)) : resolve(items.map((n) => `done ${n}`))
      )
    })
  }
  const releaseAll = async () => {
    while (gates.length > 0) {
      gates.shift()!()
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return { groups, write, releaseAll }
}

test.group('Group commit', () => {
  test('a lone item is written at once, alone', async ({ assert }) => {
    const commit = new GroupCommit<number, string>({ maxSize: 10, maxInFlight: 1 })
    const writer = gatedWriter()
    const answer = commit.add('p', 1, writer.write)
    assert.deepEqual(writer.groups, [[1]])
    await writer.releaseAll()
    assert.equal(await answer, 'done 1')
  })

  test('items arriving while the key is busy go together, in order, up to maxSize', async ({
    assert,
  }) => {
    const commit = new GroupCommit<number, string>({ maxSize: 3, maxInFlight: 1 })
    const writer = gatedWriter()
    const answers = [1, 2, 3, 4, 5, 6].map((n) => commit.add('p', n, writer.write))
    assert.deepEqual(writer.groups, [[1]])
    await writer.releaseAll()
    assert.deepEqual(writer.groups, [[1], [2, 3, 4], [5, 6]])
    assert.deepEqual(
      await Promise.all(answers),
      [1, 2, 3, 4, 5, 6].map((n) => `done ${n}`)
    )
  })

  test('keys do not wait for each other; maxInFlight bounds one key', async ({ assert }) => {
    const commit = new GroupCommit<number, string>({ maxSize: 10, maxInFlight: 2 })
    const writer = gatedWriter()
    const answers = [
      commit.add('a', 1, writer.write),
      commit.add('a', 2, writer.write),
      commit.add('a', 3, writer.write),
      commit.add('b', 4, writer.write),
    ]
    assert.deepEqual(writer.groups, [[1], [2], [4]])
    await writer.releaseAll()
    assert.deepEqual(writer.groups, [[1], [2], [4], [3]])
    assert.lengthOf(await Promise.all(answers), 4)
  })

  test('a failed group is retried item by item, so only the failing item fails', async ({
    assert,
  }) => {
    const commit = new GroupCommit<number, string>({ maxSize: 10, maxInFlight: 1 })
    const writer = gatedWriter((items) => items.includes(3))
    const answers = [1, 2, 3, 4].map((n) =>
      commit.add('p', n, writer.write).catch((error: Error) => error.message)
    )
    await writer.releaseAll()
    assert.deepEqual(writer.groups, [[1], [2, 3, 4], [2], [3], [4]])
    assert.deepEqual(await Promise.all(answers), ['done 1', 'done 2', 'refused 3', 'done 4'])
  })
})
