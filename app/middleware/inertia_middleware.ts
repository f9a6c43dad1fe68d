import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'
import BaseInertiaMiddleware from '@adonisjs/inertia/inertia_middleware'
import { principalForUser } from '#auth/portal_principal'
import { brandForPublisher, brandOf, PLATFORM_BRAND } from '#services/catalogue/branding_service'
import LabelService from '#services/catalogue/label_service'
import { disputesAwaitingAnswer } from '#services/money/portal_sales'
import type { PrincipalKind } from '#auth/principal'
import Label from '#models/label'

/** The toast that tells the result of the last action. */
export type Notice = { severity?: 'success' | 'info' | 'warn' | 'error'; summary: string }

/** A secret the last action made (an API key, a webhook signing secret), shown once. */
export type OneTimeSecret = { label: string; value: string }

/**
 * What every portal page knows: who is signed in (role and permissions gate the navigation),
 * whose brand to wear, and the result of the last action (a toast).
 */
export default class InertiaMiddleware extends BaseInertiaMiddleware {
  async share(ctx: HttpContext) {
    // A page may render before the session and auth middleware ran (a 404, say).
    const { auth, session, principal } = ctx as Partial<HttpContext>
    const user = auth?.user
    // The portal bouncer made the principal already; a page outside the portal routes has none.
    const kind = user ? (principal ?? principalForUser(user)).kind : undefined
    return {
      errors: ctx.inertia.always(this.getValidationErrors(ctx)),
      user: ctx.inertia.always(
        user && kind
          ? { email: user.email, role: user.role, kind, permissions: user.permissions }
          : undefined
      ),
      brand: ctx.inertia.always(await this.brand(ctx, kind, user?.publisherId, user?.labelId)),
      notice: ctx.inertia.always<Notice | null>(session?.flashMessages.get('notice') ?? null),
      secret: ctx.inertia.always<OneTimeSecret | null>(
        session?.flashMessages.get('secret') ?? null
      ),
      // The "Disputes" badge of a publisher's people: one count, on full page visits only.
      disputes_waiting:
        kind === 'publisher' && user?.publisherId && user.permissions.includes('read')
          ? () => disputesAwaitingAnswer(user.publisherId!)
          : undefined,
    }
  }

  /** Signed out, a label's own host wears its brand (the login page of its workspace). */
  protected async brand(
    ctx: HttpContext,
    kind?: PrincipalKind,
    publisherId?: string | null,
    labelId?: string | null
  ) {
    if (kind === 'publisher') return brandForPublisher(publisherId)
    // A label's manager wears its label's brand.
    if (kind === 'label_manager') return brandOf(labelId ? await Label.find(labelId) : null)
    if (kind) return PLATFORM_BRAND
    const labels = await ctx.containerResolver.make(LabelService)
    return brandOf(await labels.labelForHost(ctx.request.host()))
  }

  async handle(ctx: HttpContext, next: NextFn) {
    await this.init(ctx)
    const output = await next()
    this.dispose(ctx)
    return output
  }
}

declare module '@adonisjs/inertia/types' {
  type MiddlewareSharedProps = InferSharedProps<InertiaMiddleware>
  export interface SharedProps extends MiddlewareSharedProps {}
}
