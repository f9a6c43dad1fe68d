import { OperatorCataloguePolicy } from '#policies/operator_catalogue'

/** Only the operator sees or changes labels; publishers and buyers never do. */
export default class LabelPolicy extends OperatorCataloguePolicy {}
