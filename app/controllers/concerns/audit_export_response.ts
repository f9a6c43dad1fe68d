import type { HttpContext } from '@adonisjs/core/http'
import type AuditExportService from '#services/audit/audit_export_service'
import type { ExportFilters } from '#services/audit/audit_export_service'

/**
 * An audit export as a download, for the API and the compliance portal
 * alike: streamed as the snapshot is read, never cached, named by its moment.
 */
export function sendAuditExport(
  { response, principal }: Pick<HttpContext, 'response' | 'principal'>,
  exports: AuditExportService,
  format: 'csv' | 'json',
  filters: ExportFilters
) {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  response.header('Cache-Control', 'no-store')
  if (format === 'csv') {
    response.header('Content-Type', 'text/csv; charset=utf-8')
    response.header('Content-Disposition', `attachment; filename="audit-log-${stamp}.csv"`)
    return response.stream(exports.csv(principal, filters))
  }
  response.header('Content-Type', 'application/json; charset=utf-8')
  response.header('Content-Disposition', `attachment; filename="audit-log-${stamp}.json"`)
  return response.stream(exports.json(principal, filters))
}
