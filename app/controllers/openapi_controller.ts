import type { HttpContext } from '@adonisjs/core/http'
import { openapiDocument } from '#openapi/served_document'

export default class OpenapiController {
  async show({ response }: HttpContext) {
    response.header('content-type', 'application/json; charset=utf-8')
    return openapiDocument()
  }
}
