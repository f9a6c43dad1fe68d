import { BaseTransformer } from '@adonisjs/core/transformers'
import type { returnWindowOf } from '#services/money/portal_sales'

type ReturnWindow = Awaited<ReturnType<typeof returnWindowOf>>

/** A lead's return window as its buyer's lead page asks for it: may it be returned, until when. */
export default class ReturnWindowTransformer extends BaseTransformer<ReturnWindow> {
  /** `mayOpen`: whether this user may return leads (the "submit" permission). */
  constructor(
    window: ReturnWindow,
    protected mayOpen: boolean
  ) {
    super(window)
  }

  toObject() {
    return {
      ...this.pick(this.resource, ['settlement', 'closes_at', 'open', 'dispute']),
      reasons: [...this.resource.reasons],
      may_open: this.mayOpen,
    }
  }
}
