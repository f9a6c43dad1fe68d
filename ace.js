/*
|--------------------------------------------------------------------------
| JavaScript entrypoint for running ace commands
|--------------------------------------------------------------------------
|
| Registers the TypeScript hook, then hands over to bin/console.ts.
|
*/
import '@poppinss/ts-exec'

await import('./bin/console.js')
