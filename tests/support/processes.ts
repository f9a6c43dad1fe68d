import { readFileSync } from 'node:fs'

/** Alive and not a zombie waiting for whoever adopted it to reap it (Linux /proc). */
export function running(pid: number) {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return false
  }
}

/** The processes `pid` started, e.g. the HTTP workers of a cluster primary. */
export function childrenOf(pid: number) {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
    .split(/\s+/)
    .filter(Boolean)
    .map(Number)
}
