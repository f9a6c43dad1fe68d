import { defineConfig } from '@adonisjs/transmit'
import { LiveTransport } from '#services/reports/live_transport'

/**
 * Server-sent events for the live dashboards (docs/reports.md, "Dashboards"). Broadcasts
 * travel over Redis, so an open dashboard in the web process hears a lead recorded by any
 * process (the API, a hosted form, the worker's upload rows).
 */
export default defineConfig({
  // Keeps an idle stream open through proxies that close silent connections.
  pingInterval: '30s',
  transport: { driver: () => new LiveTransport() },
})
