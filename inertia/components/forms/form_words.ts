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
