/*
|--------------------------------------------------------------------------
| HTTP kernel file
|--------------------------------------------------------------------------
|
| The API under /v1 and the portals share the server middleware; sessions,
| CSRF and the session guard only run on the portal groups (see routes).
|
*/
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

server.use([
  () => import('#middleware/container_bindings_middleware'),
  () => import('@adonisjs/static/static_middleware'),
  () => import('@adonisjs/cors/cors_middleware'),
  () => import('@adonisjs/vite/vite_middleware'),
  () => import('#middleware/inertia_middleware'),
])

router.use([
  () => import('#middleware/load_shedding_middleware'),
  () => import('#middleware/api_request_middleware'),
  () => import('@adonisjs/core/bodyparser_middleware'),
  () => import('#middleware/input_guard_middleware'),
])

export const middleware = router.named({
  session: () => import('@adonisjs/session/session_middleware'),
  shield: () => import('@adonisjs/shield/shield_middleware'),
  initializeAuth: () => import('@adonisjs/auth/initialize_auth_middleware'),
  silentAuth: () => import('#middleware/silent_auth_middleware'),
  auth: () => import('#middleware/auth_middleware'),
  guest: () => import('#middleware/guest_middleware'),
  portalBouncer: () => import('#middleware/portal_bouncer_middleware'),
  portalRole: () => import('#middleware/portal_role_middleware'),
  apiKey: () => import('#middleware/api_key_middleware'),
  rateLimit: () => import('#middleware/rate_limit_middleware'),
})
