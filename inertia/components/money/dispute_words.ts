/** How the portals say a dispute's codes in words (docs/money.md, "Disputes"). */
import { sizeWords } from '~/composables/use_file_download'

const REASONS: Record<string, string> = {
  invalid_contact: 'Contact details do not work',
  duplicate: 'Duplicate of an earlier lead',
  outside_target_audience: 'Outside the target audience',
  consent_disputed: 'Consent disputed',
  fraud: 'Fraud',
  other: 'Other',
}

const STATUSES: Record<string, string> = {
  open: 'Open: waiting for the publisher',
  responded: 'Answered: waiting for a decision',
  upheld: 'Upheld: the lead is returned',
  rejected: 'Rejected: the sale stands',
  withdrawn: 'Withdrawn by the buyer',
}

const DECIDERS: Record<string, string> = {
  'rule:consent_proof': 'the consent rule: the lead’s consent proof verifies',
  'rule:duplicate': 'the duplicate rule: the platform confirmed an earlier lead',
  'rule:no_response': 'the deadline: the publisher did not answer in time',
  'rule:default_outcome': 'the deadline: nobody decided in time, so the label’s default applies',
  'operator': 'the operator',
}

const AUTHORS: Record<string, string> = {
  buyer: 'Buyer',
  publisher: 'Publisher',
  operator: 'Operator',
}

const words = (table: Record<string, string>) => (code: string) =>
  table[code] ?? code.replaceAll('_', ' ')

export const disputeReasonWords = words(REASONS)
export const disputeStatusWords = words(STATUSES)
export const authorWords = words(AUTHORS)
export const decidedByWords = (code: string | null) =>
  code === null
    ? 'nobody yet'
    : (DECIDERS[code] ?? (code.startsWith('rule:') ? code : 'the operator'))

/** The deadline running now: the publisher's answer while open, the decision once answered. */
export function runningDeadline(dispute: {
  status: string
  respond_by: string | null
  decide_by: string | null
}) {
  if (dispute.status === 'open') return { label: 'Answer due', iso: dispute.respond_by }
  if (dispute.status === 'responded') return { label: 'Decision due', iso: dispute.decide_by }
  return null
}

/** A lead's id as a list shows it: its last, random, part (UUIDv7 ids made the same day start alike). */
export const leadRef = (id: string) => `…${id.slice(-12)}`

/** A file's size as people read it; a small one in bytes. */
export const fileSizeWords = (bytes: number) =>
  bytes < 1024 ? `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}` : sizeWords(bytes)
