// Loaded with `node --import` into every process a benchmark starts (bench/bench_child.ts).
// A benchmark killed without its children (a timeout, a SIGKILL) used to leave its routing
// worker running, and that worker took the next run's jobs and skewed its figures. So each
// child ends itself once the process that started it is gone (or a zombie nobody reaped).
// The benchmark names itself in BENCH_PARENT_PID: by the time this runs, a parent that died at
// once may already have handed us over, and process.ppid would then name the adopter.
import { existsSync, readFileSync } from 'node:fs'

const parent = Number(process.env.BENCH_PARENT_PID) || process.ppid
const procfs = existsSync('/proc/self/stat')

function parentGone() {
  if (procfs) {
    try {
      return /^\d+ \(.*\) [ZX] /s.test(readFileSync(`/proc/${parent}/stat`, 'utf8'))
    } catch {
      return true
    }
  }
  try {
    process.kill(parent, 0)
    return false
  } catch {
    return true
  }
}

setInterval(() => {
  if (parentGone()) process.exit(1)
}, 500).unref()
