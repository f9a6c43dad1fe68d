/**
 * A duty of the worker process that runs every `intervalMs`, one turn at a time: the next turn
 * is scheduled when the last one ends, so a slow turn never overlaps itself. A turn catches
 * and logs its own errors. Returns a function that stops the clock, waiting for a turn in
 * progress.
 */
export function startWorkerClock(intervalMs: number, turn: () => Promise<unknown>) {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  let current: Promise<unknown> = Promise.resolve()

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      current = turn().finally(schedule)
    }, intervalMs)
  }
  schedule()

  return async function stop() {
    stopped = true
    clearTimeout(timer)
    await current
  }
}
