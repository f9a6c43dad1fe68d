import { defineConfig } from '@adonisjs/cors'

const corsConfig = defineConfig({
  enabled: true,
  origin: [],
  methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  headers: true,
  exposeHeaders: ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after'],
  credentials: true,
  maxAge: 90,
})

export default corsConfig
