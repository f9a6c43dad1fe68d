/** Filled in by the OpenAPI work: the document served at /v1/openapi.json. */
export function openapiDocument() {
  return { openapi: '3.1.0', info: { title: 'Leadgate API', version: '1.0.0' }, paths: {} }
}
