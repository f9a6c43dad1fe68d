import Buyer from '#models/buyer'
import Label from '#models/label'
import Publisher from '#models/publisher'
import type RoutingRule from '#models/routing_rule'
import type Principal from '#auth/principal'
import { ownerDirectory } from '#services/catalogue/owner_directory'

/** One option of a picker: the value the API takes, the name a person reads. */
export type Choice = { value: string; label: string }

/**
 * What a routing rule may name, by name: buyers and publishers by id (the
 * operator's owner directory), labels by slug, as the API takes them.
 * Routing rules are the operator's alone, so anyone else is offered nothing.
 */
export async function ruleChoices(principal: Principal) {
  const [owners, labels] = await Promise.all([
    ownerDirectory(principal),
    principal.isOperator ? Label.query().select('slug', 'name').orderBy('name') : [],
  ])
  const choice = (owner: { id: string; name: string }): Choice => ({
    value: owner.id,
    label: owner.name,
  })
  return {
    buyers: owners?.buyers.map(choice) ?? [],
    labels: labels.map((label): Choice => ({ value: label.slug, label: label.name })),
    publishers: owners?.publishers.map(choice) ?? [],
  }
}

/** The names (and buyers' status) a list of rules shows beside their ids, in three queries at most. */
export async function ruleReferences(rules: RoutingRule[]) {
  const buyerIds = [...new Set(rules.map((rule) => rule.buyerId))]
  const labelIds = [...new Set(rules.flatMap((rule) => rule.labelIds))]
  const publisherIds = [...new Set(rules.flatMap((rule) => rule.publisherIds))]
  const [buyers, labels, publishers] = await Promise.all([
    buyerIds.length ? Buyer.query().whereIn('id', buyerIds).select('id', 'name', 'status') : [],
    labelIds.length ? Label.query().whereIn('id', labelIds).select('slug', 'name') : [],
    publisherIds.length ? Publisher.query().whereIn('id', publisherIds).select('id', 'name') : [],
  ])
  return {
    buyers: Object.fromEntries(
      buyers.map((buyer) => [buyer.id, { name: buyer.name, status: buyer.status }])
    ),
    labels: Object.fromEntries(labels.map((label) => [label.slug, label.name])),
    publishers: Object.fromEntries(publishers.map((publisher) => [publisher.id, publisher.name])),
  }
}
