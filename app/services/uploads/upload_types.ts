import type Principal from '#auth/principal'

export const OUTCOMES = ['accepted', 'flagged', 'rejected'] as const
export type RowOutcome = (typeof OUTCOMES)[number]
export type UploadStatus = 'validating' | 'validated' | 'accepting' | 'accepted'

/** An `uploads` row as read. */
export type UploadRow = {
  id: string
  publisher_id: string
  environment: Principal['environment']
  status: UploadStatus
  format: string
  filename: string | null
  encoding: string
  delimiter: string | null
  bytes: string | number
  columns: string[]
  requested_mapping: Record<string, string | null> | null
  created_by: string
  accepted_by: string | null
  include_flagged: boolean
  row_count: number
  validated_rows: number
  accepted_rows: number
  flagged_rows: number
  rejected_rows: number
  leads_created: number
  created_at: Date
  updated_at: Date
  validated_at: Date | null
  accept_requested_at: Date | null
  accepted_at: Date | null
}
