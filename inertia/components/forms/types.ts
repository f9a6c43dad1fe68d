/** Hosted forms as the portal's forms controller hands them to the pages (GET /v1/forms's JSON). */

/** Whose portal a form page is in: the operator's (every publisher's forms) or a publisher's. */
export type FormAudience = 'operator' | 'publisher'

export type FormField = {
  name: string
  label: string
  required: boolean
  type?: string
  options?: string[]
}

export type ConsentVersion = {
  id: string
  version: number
  text: string
  created_at: string | null
}

export type HostedForm = {
  id: string
  publisher_id: string
  slug: string
  title: string
  fields: FormField[]
  consent_text: string | null
  consent_version: ConsentVersion | null
  thank_you_url: string | null
  embed_origins: string[]
  active: boolean
  url: string
  embed_snippet: string
  created_at: string | null
  updated_at: string | null
}

export type FormFunnel = {
  days: number
  views: number
  starts: number
  submissions: number
  blocked: number
}

/** What the field editor offers, from the server's own lists. */
export type FormVocabulary = {
  contact_fields: readonly string[]
  attribute_types: readonly string[]
  reserved_names: readonly string[]
}

/** The lead's own fields in words; any other name is an attribute of the lead. */
export const CONTACT_FIELD_WORDS: Record<string, string> = {
  name: 'Name',
  email: 'E-mail address',
  phone: 'Phone number',
  postal_code: 'Postal code',
  country: 'Country',
}

export const ATTRIBUTE_TYPE_WORDS: Record<string, string> = {
  text: 'Text',
  number: 'Number',
  select: 'Choice from a list',
  checkbox: 'Checkbox (yes or no)',
}

/** A lead field as the quality rules name it (`contact.phone`, `attributes.age`), in words. */
export function leadFieldWords(path: string) {
  const [group, name] = path.split('.', 2)
  if (group === 'contact' && name && CONTACT_FIELD_WORDS[name]) {
    return CONTACT_FIELD_WORDS[name].toLowerCase()
  }
  return group === 'attributes' && name ? `the attribute "${name}"` : path
}
