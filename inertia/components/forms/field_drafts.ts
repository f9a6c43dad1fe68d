import { slugOf } from '~/format'
import type { Data } from '@generated/data'
import { CONTACT_FIELD_WORDS } from '~/components/forms/form_words'

/** One field of a form, as the server answers it. */
type FormField = Data.Form['fields'][number]

/** A field as the editor sends it; the validators refuse a type the server does not know. */
export type FormFieldInput = Omit<FormField, 'type'> & { type?: string }

/** The editor's value for "something else": the row asks for an attribute it names itself. */
export const ATTRIBUTE = 'attribute'

/** One row of the field editor; `key` keeps a row's inputs and labels together when it moves. */
export type FieldDraft = {
  key: number
  /** A contact field's name, or ATTRIBUTE. */
  source: string
  /** The attribute's name (attribute rows). */
  name: string
  /** Until the name is typed by hand it follows the label. */
  nameTouched: boolean
  label: string
  required: boolean
  type: string
  options: string[]
}

let next = 0

export function blankDraft(): FieldDraft {
  return {
    key: next++,
    source: '',
    name: '',
    nameTouched: false,
    label: '',
    required: false,
    type: 'text',
    options: [],
  }
}

export function toDraft(field: FormField): FieldDraft {
  const contact = field.name in CONTACT_FIELD_WORDS
  return {
    ...blankDraft(),
    source: contact ? field.name : ATTRIBUTE,
    name: contact ? '' : field.name,
    nameTouched: true,
    label: field.label,
    required: field.required,
    type: field.type ?? 'text',
    options: [...(field.options ?? [])],
  }
}

/** The row as the API takes it: a contact field has no type or options, only a choice has options. */
export function fromDraft(draft: FieldDraft): FormFieldInput {
  if (draft.source !== ATTRIBUTE) {
    return { name: draft.source, label: draft.label, required: draft.required }
  }
  return {
    name: draft.name,
    label: draft.label,
    required: draft.required,
    type: draft.type,
    ...(draft.type === 'select' ? { options: draft.options } : {}),
  }
}

/** An attribute name suggested from its label: "Roof type" → "roof_type" (a letter first). */
export function attributeNameOf(label: string) {
  return slugOf(label)
    .replaceAll('-', '_')
    .replace(/^[^a-z]+/, '')
    .slice(0, 64)
}
