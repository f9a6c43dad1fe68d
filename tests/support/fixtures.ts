import { randomUUID } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import Buyer from '#models/buyer'
import Label from '#models/label'
import type { Environment, Permission } from '#auth/principal'
import ApiKeyService from '#services/access/api_key_service'
import PublisherService from '#services/catalogue/publisher_service'
import { SYSTEM_OPERATOR } from '#services/access/operator_service'

/** A short unique suffix so every test builds its own world and never sees another's. */
export function unique(prefix: string) {
  return `${prefix}-${randomUUID().slice(0, 8)}`
}

export async function createLabel() {
  const slug = unique('label')
  return Label.create({ slug, name: `Label ${slug}`, branding: {} })
}

export async function createPublisher(overrides: { country?: string; label?: string } = {}) {
  const publishers = await app.container.make(PublisherService)
  const slug = unique('pub')
  return publishers.create(SYSTEM_OPERATOR, {
    slug,
    name: `Publisher ${slug}`,
    contact_email: `${slug}@publisher.example`,
    country: overrides.country ?? 'NL',
    label: overrides.label,
  })
}

export async function createBuyer() {
  const name = unique('buyer')
  return Buyer.create({ name, contactEmail: `${name}@buyer.example`, status: 'active' })
}

type KeyOptions = {
  publisherId?: string
  buyerId?: string
  permissions?: Permission[]
  environment?: Environment
  allowedIps?: string[]
}

/** Returns the secret; the default is a live operator key with read and submit. */
export async function createKey(options: KeyOptions = {}) {
  const apiKeys = await app.container.make(ApiKeyService)
  const { apiKey, secret } = await apiKeys.create(SYSTEM_OPERATOR, {
    name: unique('key'),
    publisher_id: options.publisherId,
    buyer_id: options.buyerId,
    permissions: options.permissions ?? ['read', 'submit'],
    environment: options.environment ?? 'live',
    allowed_ips: options.allowedIps,
  })
  return { apiKey, secret }
}

export async function operatorKey() {
  return (await createKey()).secret
}

/** A live publisher with the given quality rules and a live key with read and submit. */
export async function livePublisher(rules: Record<string, unknown> = {}, country = 'NL') {
  const publisher = await createPublisher({ country })
  publisher.merge({ status: 'live', deliveryMethods: ['api'], qualityRules: rules as any })
  await publisher.save()
  const { secret } = await createKey({ publisherId: publisher.id })
  return { publisher, key: secret }
}

/** A realistic, valid lead for the given publisher slug; override any part. */
export function leadBody(publisher: string, overrides: Record<string, any> = {}) {
  const n = Math.floor(Math.random() * 9_000_000) + 1_000_000
  return {
    publisher,
    contact: {
      name: 'Jan Jansen',
      email: `jan.${n}@example.nl`,
      phone: `+316${String(n).padStart(8, '1')}`,
      postal_code: '1012 AB',
      country: 'NL',
      ...overrides.contact,
    },
    provenance: {
      source: 'facebook',
      campaign: 'winter-2026',
      landing_page: 'https://energy.example/offer',
      ...overrides.provenance,
    },
    consent: {
      given: true,
      text: 'I agree that Demo Energy may contact me about my energy contract.',
      timestamp: new Date(Date.now() - 60_000).toISOString(),
      ip: '203.0.113.9',
      ...overrides.consent,
    },
    ...(overrides.attributes ? { attributes: overrides.attributes } : {}),
  }
}
