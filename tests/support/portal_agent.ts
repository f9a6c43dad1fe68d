import env from '#start/env'

export const FIREFOX_ON_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'

export type InertiaPage = { component: string; props: Record<string, any>; url: string }

/**
 * One browser, without the browser: keeps its cookies, sends the XSRF token
 * the way the Inertia client does, and reads pages as Inertia's JSON. Each
 * agent is its own session, so a test can hold several at once.
 */
export class PortalAgent {
  protected cookies = new Map<string, string>()
  protected version: string | undefined
  /** The page the agent is on: a form's "back" goes there, as a browser's Referer says. */
  protected currentUrl: string | undefined

  constructor(protected userAgent = FIREFOX_ON_LINUX) {}

  /** A page as the Inertia client gets it; a redirect answers its location instead. */
  async visit(path: string): Promise<{ status: number; page?: InertiaPage; location?: string }> {
    let response = await this.send('GET', path, undefined, true)
    if (response.status === 409) {
      // Asset version mismatch: the client takes the server's and asks again.
      this.version = response.headers.get('x-inertia-version') ?? undefined
      response = await this.send('GET', path, undefined, true)
    }
    const location = this.locationOf(response)
    if (location) return { status: response.status, location }
    this.currentUrl = this.url(path)
    const page = (await response.json()) as InertiaPage & { version?: string }
    this.version = page.version ?? this.version
    return { status: response.status, page }
  }

  /** A form submission; answers the status and where it redirects to. */
  async submit(
    method: 'POST' | 'PUT' | 'DELETE',
    path: string,
    body: Record<string, unknown> = {}
  ) {
    if (!this.cookies.has('XSRF-TOKEN')) await this.visit('/login')
    const response = await this.send(method, path, body, true)
    const location = this.locationOf(response)
    const page = location ? undefined : ((await response.json()) as InertiaPage)
    return { status: response.status, location, page }
  }

  /** Signs in through the login form; answers where it redirected. */
  async signIn(email: string, password: string) {
    await this.visit('/login')
    return (await this.submit('POST', '/login', { email, password })).location
  }

  protected async send(method: string, path: string, body: unknown, inertia: boolean) {
    const headers: Record<string, string> = {
      'user-agent': this.userAgent,
      'accept': 'text/html, application/xhtml+xml',
      ...(this.currentUrl ? { referer: this.currentUrl } : {}),
      'cookie': [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    }
    if (inertia) {
      headers['x-inertia'] = 'true'
      headers['x-requested-with'] = 'XMLHttpRequest'
      if (this.version) headers['x-inertia-version'] = this.version
    }
    if (method !== 'GET') {
      headers['content-type'] = 'application/json'
      headers['x-xsrf-token'] = this.cookies.get('XSRF-TOKEN') ?? ''
    }
    const response = await fetch(this.url(path), {
      method,
      headers,
      body: method === 'GET' ? undefined : JSON.stringify(body),
      redirect: 'manual',
    })
    for (const cookie of response.headers.getSetCookie()) this.keep(cookie)
    return response
  }

  /** Where a redirect points, as a path on this server. */
  protected locationOf(response: Response) {
    const location = response.headers.get('location')
    return location ? location.replace(/^https?:\/\/[^/]+/, '') : undefined
  }

  protected url(path: string) {
    return `http://${env.get('HOST') ?? 'localhost'}:${env.get('PORT') ?? 3334}${path}`
  }

  protected keep(setCookie: string) {
    const [pair, ...attributes] = setCookie.split(';')
    const name = pair.slice(0, pair.indexOf('='))
    const value = pair.slice(pair.indexOf('=') + 1)
    const expired = attributes.some(
      (attribute) =>
        /^\s*max-age=0\s*$/i.test(attribute) ||
        (/^\s*expires=/i.test(attribute) && Date.parse(attribute.split('=')[1]) < Date.now())
    )
    if (expired || value === '') this.cookies.delete(name)
    else this.cookies.set(name, value)
  }
}
