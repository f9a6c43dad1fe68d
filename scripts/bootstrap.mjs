// Runs before anything else, on whatever Node the machine has (20 is enough):
// installs the project's own Node 24 and dependencies when they are missing or
// stale, and writes a .env with a fresh APP_KEY on the first run.
import { execSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'

const stale = (target, source) =>
  !existsSync(target) || statSync(target).mtimeMs < statSync(source).mtimeMs

if (
  !existsSync('node_modules/.bin/node') ||
  stale('node_modules/.package-lock.json', 'package-lock.json')
) {
  console.log('Installing dependencies (and Node 24 for this project)…')
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' })
}

if (!existsSync('.env')) {
  const example = readFileSync('.env.example', 'utf8')
  writeFileSync(
    '.env',
    example.replace(/^APP_KEY=.*$/m, `APP_KEY=${randomBytes(32).toString('base64url')}`)
  )
  console.log('Wrote .env with a new APP_KEY')
}
