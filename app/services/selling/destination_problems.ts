import webhooksConfig from '#config/webhooks'
import type { FieldError } from '#exceptions/api_problem'
import { AddressPolicy, urlProblem } from '#services/webhooks/ssrf_guard'
import type { HttpDestinationConfig } from '#services/selling/http_destination'
import { templateProblem } from '#services/selling/lead_template'
import { responseRulesProblem } from '#services/selling/response_rules'

/**
 * What the validator's shapes cannot see in an `http` destination: templates
 * that do not render into their content type, paths and patterns that do not
 * compile, URLs the SSRF policy refuses. Fields are named from the body's
 * root (`http.template`, `http.auth.token_url`), ready for
 * `ApiProblem.unprocessable`. An empty list: the destination may be saved.
 */
export async function destinationProblems(http: HttpDestinationConfig): Promise<FieldError[]> {
  const urls: Record<string, string | undefined> = {
    'http.url': http.url,
    'http.ping.url': http.ping?.url,
    'http.auth.token_url': http.auth?.type === 'oauth2' ? http.auth.token_url : undefined,
  }
  const check = {
    policy: new AddressPolicy(webhooksConfig.ssrf.allow),
    requireHttps: webhooksConfig.ssrf.requireHttps,
    resolveTimeoutMs: webhooksConfig.ssrf.resolveTimeoutMs,
  }
  const refused = await Promise.all(
    Object.entries(urls).map(async ([field, url]) => {
      const problem = url === undefined ? null : await urlProblem(url, check)
      return problem ? [{ ...problem, field }] : []
    })
  )
  return [...refused.flat(), ...templateProblem(http), ...responseRulesProblem(http)]
}
