import { OperatorCataloguePolicy } from '#policies/operator_catalogue'

/** Only the operator sees or changes buyers; publishers and buyers never do. */
export default class BuyerPolicy extends OperatorCataloguePolicy {}
