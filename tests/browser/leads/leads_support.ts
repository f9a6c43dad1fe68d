import type { ApiClient } from '@japa/api-client'
import type { Page } from 'playwright'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import { leadBody } from '#tests/support/fixtures'
import { pageWidth, seriousAxeViolations, signIn } from '#tests/browser/helpers'

/** Helpers shared by the leads browser specs (not a spec itself). */

/** Delivers a lead through POST /v1/leads and returns its id and outcome. */
export async function deliver(
  client: ApiClient,
  world: { publisher: { slug: string }; key: string },
  overrides: Record<string, any> = {}
) {
  const response = await client
    .post('/v1/leads')
    .bearerToken(world.key)
    .json(leadBody(world.publisher.slug, overrides))
  if (![201, 422].includes(response.status())) {
    throw new Error(`lead not stored: ${response.status()} ${response.text()}`)
  }
  return { id: response.body().id as string, status: response.body().status as string }
}

export function trailOf(leadId: string) {
  return db.from('audit.entries').where('lead_id', leadId).orderBy('lead_seq')
}

/**
 * The checks every page gets: no serious or critical axe-core violation at
 * the desktop width, and at a phone's width nothing wider than the screen.
 */
export async function assertAccessibleAndNarrow(page: Page, assert: Assert) {
  assert.deepEqual(await seriousAxeViolations(page), [], `axe on ${page.url()}`)
  await page.setViewportSize({ width: 390, height: 800 })
  assert.isAtMost(await pageWidth(page), 390, `width of ${page.url()}`)
  assert.deepEqual(await seriousAxeViolations(page), [], `axe at 390 px on ${page.url()}`)
  await page.setViewportSize({ width: 1280, height: 800 })
}

/** Signs in and waits until the portal's home has opened. */
export async function signInAs(page: Page, email: string) {
  await signIn(page, email)
  await page.waitForURL((url) => !url.pathname.startsWith('/login'))
  await page.locator('main h1').first().waitFor({ state: 'visible', timeout: 30_000 })
}

/**
 * Opens a portal page and waits for its title; the first visit of a page
 * may wait for Vite to transform it, longer than expectText's 5 s.
 */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path)
  await page.locator('main h1').first().waitFor({ state: 'visible', timeout: 30_000 })
  return response
}
