import { BaseTransformer } from '@adonisjs/core/transformers'
import type { ruleReferences } from '#services/routing/rule_references'

type RuleReferences = Awaited<ReturnType<typeof ruleReferences>>

/** The names a page of routing rules shows beside the ids and slugs it names (and buyers' status). */
export default class RuleReferencesTransformer extends BaseTransformer<RuleReferences> {
  toObject() {
    const { buyers, labels, publishers } = this.resource
    return { buyers, labels, publishers }
  }
}
