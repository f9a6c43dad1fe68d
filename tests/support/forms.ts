import app from '@adonisjs/core/services/app'
import Form from '#models/form'
import type Publisher from '#models/publisher'
import FormService, { type CreateFormInput } from '#services/forms/form_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'
import { unique } from '#tests/support/fixtures'

export const CONSENT =
  'I agree that Demo Energy and its partners may call me about my energy contract.'

/** A form definition for the API; override any part. */
export function formBody(overrides: Partial<CreateFormInput> = {}): CreateFormInput {
  return {
    slug: unique('form'),
    title: 'Save on your energy bill',
    fields: [
      { name: 'name', label: 'Your name', required: true },
      { name: 'email', label: 'E-mail', required: true },
      { name: 'phone', label: 'Phone', required: true },
      { name: 'postal_code', label: 'Postal code', required: true },
      {
        name: 'roof',
        label: 'Roof',
        required: false,
        type: 'select',
        options: ['flat', 'pitched'],
      },
    ],
    consent_text: CONSENT,
    embed_origins: ['https://site.example'],
    ...overrides,
  }
}

/** A form of this publisher, which delivers by form from now on. */
export async function createForm(publisher: Publisher, overrides: Partial<CreateFormInput> = {}) {
  if (!publisher.deliveryMethods.includes('form')) {
    publisher.deliveryMethods = [...publisher.deliveryMethods, 'form']
    await publisher.save()
  }
  const forms = await app.container.make(FormService)
  const form = await forms.create(SYSTEM_OPERATOR, {
    ...formBody(overrides),
    publisher_id: publisher.id,
  })
  return Form.query().where('id', form.id).preload('consentVersion').firstOrFail()
}

/** The sealed token a served page carries. */
export function tokenIn(html: string) {
  const match = html.match(/name="form_token" value="([^"]+)"/)
  if (!match) throw new Error('no form token in the page')
  return match[1]
}

/** A consumer's answers to `formBody()`'s fields, consent given. */
export function answers(overrides: Record<string, string> = {}) {
  const n = Math.floor(Math.random() * 9_000_000) + 1_000_000
  return {
    name: 'Jan Jansen',
    email: `jan.${n}@example.nl`,
    phone: `06${String(n).padStart(8, '1')}`,
    postal_code: '1012 AB',
    roof: 'flat',
    consent: 'yes',
    website: '',
    ...overrides,
  }
}
