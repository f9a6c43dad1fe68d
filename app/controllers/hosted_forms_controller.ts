import { randomBytes } from 'node:crypto'
import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import type Form from '#models/form'
import type Label from '#models/label'
import HostedFormService, { type HostedForm } from '#services/forms/hosted_form_service'
import { HEIGHT_MESSAGE, pagePolicy } from '#services/forms/form_embedding'
import { type MessageKind, formPage, messagePage } from '#services/forms/form_page'

/**
 * The consumer's pages of a hosted form, server-rendered (resources/views/forms/).
 * Public: no session, no cookie; a sealed token in the page stands in for
 * both. Every answer is a page in the label's language, never problem+json.
 */
@inject()
export default class HostedFormsController {
  constructor(protected hostedForms: HostedFormService) {}

  async show(ctx: HttpContext) {
    const found = await this.hostedForms.find(ctx.params.slug)
    if (!found) return this.message(ctx, null, null, 'not_found', 404)
    if (!found.open) return this.message(ctx, found.hosted.form, found.hosted.label, 'closed', 410)
    const token = await this.hostedForms.serve(found.hosted, {
      query: ctx.request.qs(),
      referer: ctx.request.header('referer') ?? null,
    })
    return this.page(ctx, found.hosted, formPage(found.hosted, { token }), 200)
  }

  async store(ctx: HttpContext) {
    const found = await this.hostedForms.find(ctx.params.slug)
    if (!found) return this.message(ctx, null, null, 'not_found', 404)
    const { hosted } = found
    if (!found.open) return this.message(ctx, hosted.form, hosted.label, 'closed', 410)
    const body = ctx.request.body()
    const outcome = await this.hostedForms.submit(hosted, body, ctx.request.ip())
    switch (outcome.kind) {
      case 'stored':
      case 'blocked':
        // A bot is thanked like anyone: it learns nothing about what was kept.
        return ctx.response.redirect(
          (outcome.kind === 'stored' && outcome.thankYouUrl) ||
            hosted.form.thankYouUrl ||
            `/f/${encodeURIComponent(hosted.form.slug)}/thanks`,
          false,
          303
        )
      case 'invalid':
        return this.page(
          ctx,
          hosted,
          formPage(hosted, { token: outcome.token, values: body, problems: outcome.problems }),
          422
        )
      case 'resend':
        return this.page(
          ctx,
          hosted,
          formPage(hosted, { token: outcome.token, values: body, notice: outcome.reason }),
          422
        )
      case 'rate_limited':
        ctx.response.header('retry-after', String(outcome.retryAfter))
        return this.message(ctx, hosted.form, hosted.label, 'rate_limited', 429, {
          minutes: Math.max(1, Math.ceil(outcome.retryAfter / 60)),
        })
    }
  }

  /** The page's script reports the first keystroke here (the funnel's "start"). */
  async start({ params, request, response }: HttpContext) {
    const found = await this.hostedForms.find(params.slug)
    if (found?.open) await this.hostedForms.start(found.hosted, request.input('form_token'))
    return response.noContent()
  }

  async thanks(ctx: HttpContext) {
    const found = await this.hostedForms.find(ctx.params.slug)
    if (!found) return this.message(ctx, null, null, 'not_found', 404)
    return this.message(ctx, found.hosted.form, found.hosted.label, 'thanks', 200)
  }

  private async page(
    ctx: HttpContext,
    hosted: HostedForm,
    data: ReturnType<typeof formPage>,
    status: number
  ) {
    const nonce = this.secure(ctx, hosted.form)
    ctx.response.status(status)
    return ctx.view.render('forms/page', { ...data, nonce, heightMessage: HEIGHT_MESSAGE })
  }

  private async message(
    ctx: HttpContext,
    form: Form | null,
    label: Label | null,
    kind: MessageKind,
    status: number,
    data?: Record<string, unknown>
  ) {
    const nonce = this.secure(ctx, form)
    ctx.response.status(status)
    return ctx.view.render('forms/message', {
      ...messagePage(label, kind, data),
      nonce,
      heightMessage: HEIGHT_MESSAGE,
    })
  }

  /** The page's security headers; answers the nonce its inline style and script carry. */
  private secure({ response }: HttpContext, form: Form | null) {
    const nonce = randomBytes(16).toString('base64')
    response.header('content-security-policy', pagePolicy(form, nonce))
    response.header('x-content-type-options', 'nosniff')
    response.header('referrer-policy', 'strict-origin-when-cross-origin')
    response.header('cache-control', 'no-store')
    return nonce
  }
}
