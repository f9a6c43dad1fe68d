import { CONTACT_FIELDS } from '#services/forms/form_fields'
import { createFormValidator, listFormsValidator, updateFormValidator } from '#validators/form'
import { type Docs, fromValidator, queryParameters } from './from_validator.js'
import {
  arrayOf,
  list,
  nullable,
  operation,
  page,
  param,
  record,
  ref,
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
const formDocs: Docs = {
  'slug': 'The page is /f/{slug}; unique across all forms.',
  'consent_text':
    'The consent wording the page shows beside its checkbox. A change makes a new version; every lead keeps the version it was given under.',
  'thank_you_url': 'Where a consumer goes after sending; the form’s own thank-you page when null.',
  'embed_origins[]': { description: origin.description, examples: origin.examples },
  'active': 'An inactive form answers its page as closed (410).',
}

const shapes: Record<string, Docs> = {
  FormField: {
    name: `One of the lead's contact fields (${CONTACT_FIELDS.join(', ')}); any other name is an attribute.`,
    label: 'Shown to the consumer.',
    type: 'Attributes only (default text); contact fields have their own input.',
    options: 'The choices of a select.',
  },
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
  shapes,
  paths: {
    '/v1/forms': {
      post: operation('/v1/forms', {
        id: 'createForm',
        tag: 'Forms',
        summary: 'Create a form',
        scope: 'submit',
        body: fromValidator(createFormValidator, {
          name: 'FormCreate',
          docs: {
            ...formDocs,
            publisher_id: 'The operator names the publisher; a publisher leaves it out.',
          },
          example,
        }),
        success: { status: 201, description: 'The form.', schema: ref('Form') },
      }),
      get: operation(
        '/v1/forms',
        list(
          'listForms',
          'Forms',
          'List forms',
          'Form',
          'A publisher sees its own forms.',
          queryParameters(listFormsValidator, { publisher_id: 'Operator: one publisher’s forms.' })
        )
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
        body: fromValidator(updateFormValidator, {
          name: 'FormUpdate',
          mergePatch: true,
          docs: { ...formDocs, '': 'A merge patch: fields left out stay as they are.' },
          example: { active: false },
        }),
        success: { status: 200, description: 'The form.', schema: ref('Form') },
      }),
    },
  },
}
