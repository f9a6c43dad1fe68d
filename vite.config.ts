import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import adonisjs from '@adonisjs/vite/client'

export default defineConfig({
  plugins: [
    vue(),
    adonisjs({ entryPoints: ['inertia/app.ts'], reload: ['resources/views/**/*.edge'] }),
  ],
  // Test runs serve assets through the same middleware but need no live reload. `node ace test`
  // still hands Vite a WebSocket port of its own (VITE_HMR_PORT, 24678 or a free one if taken),
  // which the pages' Vite client expects to reach; runs started at once could pick the same one,
  // so scripts/test.mjs starts each lane once the one before it serves.
  server: process.env.NODE_ENV === 'test' ? { hmr: false, ws: false } : {},
  // Every page is crawled for dependencies at start-up: a PrimeVue component first met on a
  // later page would otherwise make Vite re-optimise and reload mid-visit (and mid-test).
  optimizeDeps: { entries: ['inertia/app.ts', 'inertia/pages/**/*.vue'] },
  resolve: {
    alias: {
      '~/': `${import.meta.dirname}/inertia/`,
      '@generated': `${import.meta.dirname}/.adonisjs/client/`,
    },
  },
})
