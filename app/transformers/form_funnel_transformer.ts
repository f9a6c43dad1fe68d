import { BaseTransformer } from '@adonisjs/core/transformers'
import type { funnelOf } from '#services/forms/form_counters'

type Funnel = Awaited<ReturnType<typeof funnelOf>>

/** A form's funnel over its last days: views, starts, submissions, and the bots it blocked. */
export default class FormFunnelTransformer extends BaseTransformer<Funnel> {
  toObject() {
    return this.pick(this.resource, ['days', 'views', 'starts', 'submissions', 'blocked'])
  }
}
