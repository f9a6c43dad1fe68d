// Checks the import rules of .dependency-cruiser.cjs over the server code.
// The CLI cannot follow this project's `#alias/*` subpath imports to the
// TypeScript files behind their `.js` targets, so the resolver is told here.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { cruise, format } from 'dependency-cruiser'

const require = createRequire(import.meta.url)
const ruleSet = require('../.dependency-cruiser.cjs')
const { imports } = JSON.parse(readFileSync('package.json', 'utf8'))
const alias = Object.fromEntries(
  Object.entries(imports).map(([name, target]) => [
    name.replace(/\/\*$/, ''),
    new URL(`../${target.replace(/\/\*\.js$/, '')}`, import.meta.url).pathname,
  ])
)

const roots = [
  'app',
  'bench',
  'bin',
  'commands',
  'config',
  'database',
  'plugins',
  'providers',
  'start',
]
const result = await cruise(
  roots,
  { ...ruleSet.options, ruleSet, validate: true },
  {
    alias,
    extensionAlias: { '.js': ['.ts', '.js'] },
    extensions: ['.ts', '.js', '.mjs', '.json'],
    conditionNames: ['import', 'node', 'default', 'types'],
    exportsFields: ['exports'],
  }
)
const unresolved = result.output.modules.flatMap((module) =>
  module.dependencies
    .filter((dependency) => dependency.couldNotResolve && dependency.module.startsWith('#'))
    .map((dependency) => `${module.source} → ${dependency.module}`)
)
const report = await format(result.output, { outputType: 'err' })
process.stdout.write(report.output)
if (unresolved.length > 0)
  console.error(`Unresolved project imports:\n  ${unresolved.join('\n  ')}`)
process.exitCode = report.exitCode || (unresolved.length > 0 ? 1 : 0)
