import { OperatorCataloguePolicy } from '#policies/operator_catalogue'

/** Only the operator sees or changes routing rules; publishers and buyers never do. */
export default class RoutingRulePolicy extends OperatorCataloguePolicy {}
