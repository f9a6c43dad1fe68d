import { randomUUID } from 'node:crypto'
import app from '@adonisjs/core/services/app'
import Buyer from '#models/buyer'
import Label from '#models/label'
import type { Environment, Permission } from '#auth/principal'
import ApiKeyService from '#services/api_key_service'
import PublisherService from '#services/publisher_service'
import { SYSTEM_OPERATOR } from '#services/operator_service'

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
