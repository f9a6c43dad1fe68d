import type { HttpContext } from '@adonisjs/core/http'
import { urlFor } from '@adonisjs/core/services/url_builder'

export default class ApiDocsController {
  /**
   * The reference page loads the document the API serves, so what it shows
   * is exactly what `/v1/openapi.json` says.
   */
  async show({ inertia }: HttpContext) {
    return inertia.render('docs/api', { documentUrl: urlFor('v1.openapi') })
  }
}
