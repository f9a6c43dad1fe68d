import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { createKey, createLabel, createPublisher } from '#tests/support/fixtures'

/** A live publisher under a fresh label, with a live key. */
export async function labelledPublisher() {
  const label = await createLabel()
  const publisher = await createPublisher({ label: label.slug })
  publisher.merge({ status: 'live', deliveryMethods: ['api'] })
  await publisher.save()
  const { secret } = await createKey({ publisherId: publisher.id })
  return { label, publisher, key: secret }
}

export type VendorRequest = {
  method: string
  path: string
  headers: http.IncomingHttpHeaders
  json: any
}
export type VendorAnswer = { status: number; headers?: Record<string, string>; body?: unknown }
type Route = (request: VendorRequest) => VendorAnswer | Promise<VendorAnswer>

/**
 * A real HTTP server standing in for a vendor's API: `route` answers each
 * request as the vendor documents it; `requests` keeps them all.
 */
export class VendorServer {
  readonly requests: VendorRequest[] = []
  private server!: http.Server
  base = ''

  constructor(private route: Route) {}

  static async start(route: Route) {
    const vendor = new VendorServer(route)
    vendor.server = http.createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk) => chunks.push(chunk))
      req.on('end', async () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: any = null
        try {
          json = text ? JSON.parse(text) : null
        } catch {
          json = text
        }
        const request = { method: req.method!, path: req.url!, headers: req.headers, json }
        vendor.requests.push(request)
        const answer = await vendor.route(request)
        res
          .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
          .end(answer.body === undefined ? '' : JSON.stringify(answer.body))
      })
    })
    await new Promise<void>((resolve) => vendor.server.listen(0, '127.0.0.1', resolve))
    vendor.base = `http://127.0.0.1:${(vendor.server.address() as AddressInfo).port}`
    return vendor
  }

  async close() {
    this.server.closeAllConnections()
    await new Promise((resolve) => this.server.close(resolve))
  }
}

/** Enables a plugin for a label as the operator; returns the installation. */
export async function installPlugin(
  client: any,
  operator: string,
  labelId: string,
  plugin: string,
  settings: Record<string, unknown>,
  events?: string[]
) {
  const response = await client
    .post(`/v1/labels/${labelId}/plugins`)
    .bearerToken(operator)
    .json({ plugin, settings, ...(events ? { events } : {}) })
  if (response.status() !== 201) throw new Error(`install ${plugin}: ${response.text()}`)
  return response.body()
}
