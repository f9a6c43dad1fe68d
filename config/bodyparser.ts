import env from '#start/env'
import { defineConfig } from '@adonisjs/core/bodyparser'

/**
 * One body limit for the API, configurable per deployment; anything larger
 * answers 413 before it is parsed.
 */
export const apiBodyLimit = env.get('API_BODY_LIMIT') ?? '1mb'

const bodyParserConfig = defineConfig({
  allowedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
  form: {
    convertEmptyStringsToNull: true,
    limit: apiBodyLimit,
    types: ['application/x-www-form-urlencoded'],
  },
  json: {
    convertEmptyStringsToNull: false,
    limit: apiBodyLimit,
    strict: true,
    types: ['application/json', 'application/merge-patch+json', 'application/problem+json'],
  },
  raw: {
    limit: apiBodyLimit,
    types: ['text/plain'],
  },
  multipart: {
    autoProcess: true,
    convertEmptyStringsToNull: true,
    // Uploads and a dispute's attachments are read as they stream in (UploadsController,
    // DisputesController), never parked in the temp folder.
    processManually: ['/v1/uploads', '/v1/disputes/:id/responses'],
    limit: '20mb',
    types: ['multipart/form-data'],
  },
})

export default bodyParserConfig
