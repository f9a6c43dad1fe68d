import { ATTRIBUTE_TYPES, CONTACT_FIELDS } from '#services/forms/form_fields'
import {
  arrayOf,
  list,
  nullable,
  operation,
  page,
  param,
  record,
  ref,
  strictObject,
  type Section,
} from './helpers.js'

/** Hosted forms: their definitions here; the pages themselves live at /f/{slug} (docs/forms.md). */
const origin = {
  type: 'string',
  format: 'uri',
  maxLength: 300,
  description: 'An origin (scheme, host, port; no path) allowed to embed the form in a frame.',
  examples: ['https://site.example'],
}
const fieldName = {
  type: 'string',
  pattern: '^[a-z][a-z0-9_]{0,63}$',
  description: `One of the lead's contact fields (${CONTACT_FIELDS.join(', ')}); any other name is an attribute.`,
}
const formField = strictObject(
  {
    name: fieldName,
    label: { type: 'string', minLength: 1, maxLength: 200, description: 'Shown to the consumer.' },
    required: { type: 'boolean' },
    type: {
      type: 'string',
      enum: [...ATTRIBUTE_TYPES],
      description: 'Attributes only (default text); contact fields have their own input.',
    },
    options: arrayOf(
      { type: 'string', minLength: 1, maxLength: 100 },
      { maxItems: 50, description: 'The choices of a select.' }
    ),
  },
  ['name', 'label', 'required']
)
const consentText = {
  type: 'string',
  minLength: 20,
  maxLength: 5000,
  description:
    'The consent wording the page shows beside its checkbox. A change makes a new version; every lead keeps the version it was given under.',
}
const formProperties = {
  slug: { ...ref('Slug'), description: 'The page is /f/{slug}; unique across all forms.' },
  title: { type: 'string', minLength: 1, maxLength: 120 },
  fields: arrayOf(ref('FormField'), { minItems: 1, maxItems: 30 }),
  consent_text: consentText,
  thank_you_url: {
    ...nullable({ type: 'string', format: 'uri', maxLength: 2000 }),
    description: 'Where a consumer goes after sending; the form’s own thank-you page when null.',
  },
  embed_origins: arrayOf(origin, { maxItems: 20, uniqueItems: true }),
  active: { type: 'boolean', description: 'An inactive form answers its page as closed (410).' },
}
const consentVersion = record({
  id: ref('Id'),
  version: { type: 'integer', minimum: 1 },
  text: { type: 'string' },
  created_at: ref('Timestamp'),
})
const formRecord = {
  id: ref('Id'),
  publisher_id: ref('Id'),
  slug: ref('Slug'),
  title: { type: 'string' },
  fields: arrayOf(ref('FormField')),
  consent_text: { type: 'string' },
  consent_version: ref('FormConsentVersion'),
  thank_you_url: nullable({ type: 'string', format: 'uri' }),
  embed_origins: arrayOf(origin),
  active: { type: 'boolean' },
  url: { type: 'string', format: 'uri', description: 'The hosted page.' },
  embed_snippet: {
    type: 'string',
    description:
      'HTML to paste into a page: an iframe that passes the page and its utm_* parameters to the form and resizes itself.',
  },
  created_at: ref('Timestamp'),
  updated_at: ref('Timestamp'),
}

const schemas = {
  FormField: formField,
  FormCreate: strictObject(
    {
      publisher_id: {
        ...ref('Id'),
        description: 'The operator names the publisher; a publisher leaves it out.',
      },
      ...formProperties,
    },
    ['slug', 'title', 'fields', 'consent_text']
  ),
  FormUpdate: strictObject(formProperties, [], {
    description: 'A merge patch: fields left out stay as they are.',
  }),
  FormConsentVersion: consentVersion,
  Form: record(formRecord),
  FormDetail: record({
    ...formRecord,
    consent_versions: arrayOf(ref('FormConsentVersion'), {
      description: 'Every wording the form has shown, newest first.',
    }),
    funnel: record(
      {
        days: { type: 'integer' },
        views: { type: 'integer' },
        starts: { type: 'integer' },
        submissions: { type: 'integer' },
        blocked: { type: 'integer', description: 'Submissions the bot screen refused.' },
      },
      { description: 'Counts over the last 30 UTC days; no personal data.' }
    ),
    missing_required_fields: arrayOf(
      { type: 'string' },
      {
        description:
          'Fields the publisher’s quality rules require that the form does not ask for: leads from it would be rejected.',
      }
    ),
  }),
  FormPage: page('Form'),
}

const example = {
  slug: 'solar-quote',
  title: 'Get your solar quote',
  fields: [
    { name: 'name', label: 'Your name', required: true },
    { name: 'email', label: 'E-mail', required: true },
    { name: 'phone', label: 'Phone', required: true },
    { name: 'postal_code', label: 'Postal code', required: true },
    {
      name: 'roof',
      label: 'Roof type',
      required: false,
      type: 'select',
      options: ['flat', 'pitched'],
    },
  ],
  consent_text: 'I agree that Acme Solar and its partners may contact me about solar offers.',
  embed_origins: ['https://site.example'],
}

export const forms: Section = {
  tags: [
    {
      name: 'Forms',
      description:
        'Hosted forms: a branded page at /f/{slug} that works without script, embeds with a self-resizing iframe, and sends each submission through the same intake as the API (channel `form`).',
    },
  ],
  schemas,
  paths: {
    '/v1/forms': {
      post: operation('/v1/forms', {
        id: 'createForm',
        tag: 'Forms',
        summary: 'Create a form',
        scope: 'submit',
        body: { schema: ref('FormCreate'), example },
        success: { status: 201, description: 'The form.', schema: ref('Form') },
      }),
      get: operation(
        '/v1/forms',
        list('listForms', 'Forms', 'List forms', 'Form', 'A publisher sees its own forms.', [
          {
            name: 'publisher_id',
            in: 'query',
            description: 'Operator: one publisher’s forms.',
            schema: ref('Id'),
          },
        ])
      ),
    },
    '/v1/forms/{id}': {
      parameters: [param('Id')],
      get: operation('/v1/forms/{id}', {
        id: 'getForm',
        tag: 'Forms',
        summary: 'Get a form, its consent versions and its funnel',
        scope: 'read',
        success: { status: 200, description: 'The form.', schema: ref('FormDetail') },
      }),
      patch: operation('/v1/forms/{id}', {
        id: 'updateForm',
        tag: 'Forms',
        summary: 'Change a form',
        description: 'A changed `consent_text` makes a new consent version.',
        scope: 'submit',
        body: {
          schema: ref('FormUpdate'),
          mergePatch: true,
          example: { active: false },
        },
        success: { status: 200, description: 'The form.', schema: ref('Form') },
      }),
    },
  },
}
