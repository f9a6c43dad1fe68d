const WINDOW_MS = 2

/**
 * Gathers the calls made within a couple of milliseconds and answers them
 * with one batched call: dozens of concurrent deliveries claim and record
 * themselves in one round trip to Postgres instead of one each (the
 * DataLoader pattern, without caching). The window costs 2 ms of latency
 * and saves most of the round trips under load.
 */
export class Coalescer<Input, Output> {
  private waiting: {
    input: Input
    resolve: (value: Output) => void
    reject: (error: unknown) => void
  }[] = []
  private scheduled = false

  constructor(
    private run: (inputs: Input[]) => Promise<Output[]>,
    private maxBatch = 200
  ) {}

  call(input: Input): Promise<Output> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject })
      if (!this.scheduled) {
        this.scheduled = true
        setTimeout(() => this.flush(), WINDOW_MS)
      }
    })
  }

  private flush() {
    this.scheduled = false
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch)
      this.run(batch.map((entry) => entry.input)).then(
        (outputs) => batch.forEach((entry, index) => entry.resolve(outputs[index])),
        (error) => batch.forEach((entry) => entry.reject(error))
      )
    }
  }
}
