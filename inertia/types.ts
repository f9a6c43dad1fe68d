import type { PortalKind } from '~/navigation'

/** The props every page receives (see app/middleware/inertia_middleware.ts). */
export type SharedProps = {
  user?: { email: string; role: string; kind: PortalKind; permissions: string[] }
  brand: { name: string; logo_url: string | null; primary_color: string | null }
  notice: { severity?: 'success' | 'info' | 'warn' | 'error'; summary: string } | null
  errors: Record<string, string | string[]>
  secret: { label: string; value: string } | null
  /** A publisher's people: disputes waiting for its answer (the "Disputes" badge). */
  disputes_waiting?: number
}
