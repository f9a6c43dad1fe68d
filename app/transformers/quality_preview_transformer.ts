import { BaseTransformer } from '@adonisjs/core/transformers'
import type QualityPreviewService from '#services/quality/quality_preview_service'

type Preview = Awaited<ReturnType<QualityPreviewService['preview']>>

/** What the rules would decide for a sample lead (nothing stored): the outcome and its reasons. */
export default class QualityPreviewTransformer extends BaseTransformer<Preview> {
  toObject() {
    return this.pick(this.resource, ['outcome', 'quality_check', 'reasons'])
  }
}
