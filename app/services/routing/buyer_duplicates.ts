import type { ActiveRule } from '#services/routing/rule_book'
import type { UnsoldReason } from '#services/routing/selection'
import { type Part, rawPart } from '#services/sql/insert_together'

const DAY_MS = 86_400_000

type Entry = {
  task: { fact: { lead_id: string }; now: Date }
  candidates?: ActiveRule[]
  reason?: UnsoldReason
}

/**
 * The buyers with a duplicate window (DESIGN §15) that bought the same consumer as a lead of
 * this group (a lead sharing one of its fingerprints) within their window, for CapLedger.read
 * to fetch in its round trip; null when no candidate's buyer keeps a window.
 */
export function boughtBefore(entries: Entry[], now: Date): Part | null {
  const leads = new Set<string>()
  const buyers = new Set<string>()
  let days = 0
  for (const entry of entries) {
    for (const rule of entry.candidates ?? []) {
      if (!rule.buyerDuplicateWindowDays) continue
      leads.add(entry.task.fact.lead_id)
      buyers.add(rule.buyerId)
      days = Math.max(days, rule.buyerDuplicateWindowDays)
    }
  }
  if (leads.size === 0) return null
  return rawPart(
    `SELECT f.lead_id, s.buyer_id, max(s.sold_at) AS sold_at
       FROM public.lead_fingerprints f
       JOIN public.lead_fingerprints o
         ON o.digest = f.digest AND o.environment = f.environment AND o.lead_id <> f.lead_id
       JOIN public.sales s ON s.lead_id = o.lead_id AND s.buyer_id = ANY(?::uuid[])
      WHERE f.lead_id = ANY(?::uuid[]) AND s.sold_at >= ?
      GROUP BY f.lead_id, s.buyer_id`,
    [[...buyers], [...leads], new Date(now.getTime() - days * DAY_MS)]
  )
}

/**
 * Takes out of each lead's candidates the buyers that bought its consumer within their window:
 * they are never offered it. A lead left with none is unsold as `buyer_duplicate`.
 */
export function withoutBoughtBefore(entries: Entry[], rows: Record<string, any>[]) {
  const soldAt = new Map(
    rows.map((row) => [`${row.lead_id}|${row.buyer_id}`, new Date(row.sold_at)])
  )
  if (soldAt.size === 0) return
  for (const entry of entries) {
    if (!entry.candidates?.length) continue
    const { lead_id: leadId } = entry.task.fact
    const kept = entry.candidates.filter((rule) => {
      const at = soldAt.get(`${leadId}|${rule.buyerId}`)
      const window = rule.buyerDuplicateWindowDays
      return !at || !window || at.getTime() < entry.task.now.getTime() - window * DAY_MS
    })
    if (kept.length === 0) entry.reason = 'buyer_duplicate'
    entry.candidates = kept
  }
}
