import type { Page } from 'playwright'
import type { Assert } from '@japa/assert'
import type { Permission } from '#auth/principal'
import { createPortalUser, pageWidth, seriousAxeViolations, signIn } from '#tests/browser/helpers'

/** A publisher's portal user holding exactly `permissions`. */
export async function publisherUser(publisherId: string, permissions: Permission[]) {
  const user = await createPortalUser('publisher_user', { publisherId })
  user.permissions = permissions
  await user.save()
  return user
}

/** Signs in and opens `path` once the portal has let the user in. */
export async function openAs(page: Page, email: string, path: string) {
  const signedIn = page.waitForResponse(
    (answer) => answer.request().method() === 'POST' && new URL(answer.url()).pathname === '/login'
  )
  await signIn(page, email)
  await signedIn
  const response = await page.goto(path)
  if (response?.status() !== 200) {
    throw new Error(
      `${path} answered ${response?.status()}: ${(await response?.text())?.slice(0, 2000)}`
    )
  }
}

/** axe-core on the page as it stands, at the desktop's width and at a phone's (390 px). */
export async function assertAccessibleAtPhoneWidth(page: Page, assert: Assert) {
  assert.deepEqual(await seriousAxeViolations(page), [])
  await page.setViewportSize({ width: 390, height: 800 })
  assert.isAtMost(await pageWidth(page), 390)
  assert.deepEqual(await seriousAxeViolations(page), [])
  await page.setViewportSize({ width: 1280, height: 800 })
}
