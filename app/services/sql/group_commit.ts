export type GroupCommitOptions = {
  /** Most items written in one transaction. */
  maxSize: number
  /** Transactions one key may have open at once; arrivals meanwhile wait and go together next. */
  maxInFlight: number
}

type Waiting<T, R> = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }
type Queue<T, R> = { waiting: Waiting<T, R>[]; inFlight: number }

/**
 * Group commit: items arriving while a key's transactions are busy are
 * written together by the next one, so a burst costs a few round trips and
 * commits instead of several per item. Nothing waits for a timer: a lone
 * item starts at once. When a group fails, each of its items is tried again
 * alone, so one item's error is never another's.
 */
export class GroupCommit<T, R> {
  #queues = new Map<string, Queue<T, R>>()

  constructor(private options: GroupCommitOptions) {}

  add(key: string, item: T, write: (items: T[]) => Promise<R[]>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let queue = this.#queues.get(key)
      if (!queue) {
        queue = { waiting: [], inFlight: 0 }
        this.#queues.set(key, queue)
      }
      queue.waiting.push({ item, resolve, reject })
      this.#drain(key, queue, write)
    })
  }

  #drain(key: string, queue: Queue<T, R>, write: (items: T[]) => Promise<R[]>) {
    while (queue.inFlight < this.options.maxInFlight && queue.waiting.length > 0) {
      const group = queue.waiting.splice(0, this.options.maxSize)
      queue.inFlight++
      this.#write(group, write).finally(() => {
        queue.inFlight--
        if (queue.inFlight === 0 && queue.waiting.length === 0) this.#queues.delete(key)
        else this.#drain(key, queue, write)
      })
    }
  }

  async #write(group: Waiting<T, R>[], write: (items: T[]) => Promise<R[]>) {
    try {
      const results = await write(group.map((waiting) => waiting.item))
      group.forEach((waiting, index) => waiting.resolve(results[index]))
    } catch (error) {
      if (group.length === 1) return group[0].reject(error)
      await Promise.all(group.map((waiting) => this.#write([waiting], write)))
    }
  }
}
