/**
 * Gathers the calls made within a short window (2 ms unless told) and
 * answers them with one batched call: dozens of concurrent deliveries claim
 * and record themselves in one round trip to Postgres instead of one each
 * (the DataLoader pattern, without caching), and leads accepted by
 * concurrent requests travel in one routing job. The window costs its
 * milliseconds of latency and saves most of the round trips under load.
 */
export class Coalescer<Input, Output> {
  private waiting: {
    input: Input
    resolve: (value: Output) => void
    reject: (error: unknown) => void
  }[] = []
  private timer: NodeJS.Timeout | null = null
  private running = new Set<Promise<void>>()
  private maxBatch: number
  private windowMs: number

  constructor(
    private run: (inputs: Input[]) => Promise<Output[]>,
    options: { maxBatch?: number; windowMs?: number } = {}
  ) {
    this.maxBatch = options.maxBatch ?? 200
    this.windowMs = options.windowMs ?? 2
  }

  call(input: Input): Promise<Output> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject })
      this.timer ??= setTimeout(() => this.flush(), this.windowMs)
    })
  }

  /** Runs what waits now, without its window, and resolves once every batch run has answered. */
  async drain() {
    this.flush()
    await Promise.all([...this.running])
  }

  private flush() {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch)
      const answered = this.run(batch.map((entry) => entry.input)).then(
        (outputs) => batch.forEach((entry, index) => entry.resolve(outputs[index])),
        (error) => batch.forEach((entry) => entry.reject(error))
      )
      this.running.add(answered)
      void answered.finally(() => this.running.delete(answered))
    }
  }
}
