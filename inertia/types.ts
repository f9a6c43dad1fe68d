import type { Data } from '@generated/data'

/**
 * Every page's props begin with the shared props of app/middleware/inertia_middleware.ts (the
 * signed-in user, the brand, the last action's notice and secret): `usePage().props` knows them.
 */
declare module '@inertiajs/core' {
  interface InertiaConfig {
    sharedPageProps: Data.SharedProps
  }
}
