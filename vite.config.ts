import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import adonisjs from '@adonisjs/vite/client'

export default defineConfig({
  plugins: [
    vue(),
    adonisjs({ entryPoints: ['inertia/app.ts'], reload: ['resources/views/**/*.edge'] }),
  ],
  // Test runs serve assets through the same middleware but need no live reload; without a
  // WebSocket, parallel runs do not fight over the HMR port or reach each other's server.
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
