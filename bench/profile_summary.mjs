// Summarises a V8 .cpuprofile: self time by function and by file, top 30.
import { readFileSync } from 'node:fs'

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const self = new Map()
const deltas = profile.timeDeltas
for (let i = 0; i < profile.samples.length; i++) {
  self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0))
}
const total = [...self.values()].reduce((a, b) => a + b, 0)
const byFunction = new Map()
const byFile = new Map()
for (const [id, time] of self) {
  const { callFrame } = byId.get(id)
  const file =
    callFrame.url
      .replace(/^file:\/\/\/work\/main\//, '')
      .replace(/node_modules\/((@[^/]+\/)?[^/]+).*/, 'nm:$1') || '(native)'
  const fn = `${callFrame.functionName || '(anon)'} ${file}:${callFrame.lineNumber}`
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + time)
  byFile.set(file, (byFile.get(file) ?? 0) + time)
}
const top = (map) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 30)
    .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)}%  ${k}`)
    .join('\n')
console.log('== by file/package\n' + top(byFile) + '\n\n== by function\n' + top(byFunction))
