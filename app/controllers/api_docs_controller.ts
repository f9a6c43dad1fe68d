import type { HttpContext } from '@adonisjs/core/http'
import { openapiDocument } from '#openapi/served_document'

export default class ApiDocsController {
  async show({ inertia }: HttpContext) {
    return inertia.render('docs/api', { document: openapiDocument() as any })
  }
}
