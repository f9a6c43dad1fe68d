import { routingQueue } from '#services/routing/routing_queue'

/**
 * The leads routing jobs are waiting to route under `prefix`, whichever
 * job carries them: a lead accepted beside others travels in their job
 * (docs/routing.md, "Queueing").
 */
export async function queuedForRouting(prefix?: string) {
  const jobs = await routingQueue(prefix).getJobs(['waiting', 'prioritized', 'delayed', 'active'])
  return new Set(
    jobs.flatMap((job) => {
      const data = job?.data as { leadIds?: string[]; leadId?: string } | undefined
      return data?.leadIds ?? (data?.leadId ? [data.leadId] : [])
    })
  )
}
