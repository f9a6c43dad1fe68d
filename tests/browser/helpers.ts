import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Page } from 'playwright'
import app from '@adonisjs/core/services/app'
import User, { type Role } from '#models/user'
import OperatorService from '#services/access/operator_service'
import { mailTo } from '#tests/support/mailbox'
import { unique } from '#tests/support/fixtures'

export const PASSWORD = 'correct-horse-battery-staple'

export async function createOperator() {
  const operators = await app.container.make(OperatorService)
  const { user } = await operators.create({
    email: `${unique('operator')}@leadgate.test`,
    password: PASSWORD,
  })
  return user
}

export async function createPortalUser(
  role: Role,
  owner: { publisherId?: string; buyerId?: string } = {}
) {
  return User.create({
    email: `${unique(role)}@leadgate.test`,
    password: PASSWORD,
    role,
    publisherId: owner.publisherId ?? null,
    buyerId: owner.buyerId ?? null,
    permissions: ['read'],
  })
}

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/** The token as the invited publisher gets it: from the link in the e-mail the real SMTP server received. */
export function invitationTokenFor(address: string) {
  const [mail] = mailTo(address)
  if (!mail) throw new Error(`No invitation e-mail reached ${address}`)
  const body = mail.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16)))
  const match = body.match(/\/invitations\/(inv_[A-Za-z0-9_-]{43})/)
  if (!match) throw new Error(`The e-mail to ${address} holds no invitation link`)
  return match[1]
}

/**
 * Waits (up to 5 s) until an element matching `selector` shows `text`, whole
 * or, with `contains`, in part. Japa's assertText/assertTextContains pass when
 * the element never appears (their retry loop swallows the last timeout), so
 * the suite asserts through Playwright's own waiting instead.
 */
export async function expectText(
  page: Page,
  selector: string,
  text: string,
  { contains = false } = {}
) {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  const hasText = contains ? text : new RegExp(`^\\s*${escaped}\\s*$`)
  try {
    await page
      .locator(selector)
      .filter({ hasText })
      .first()
      .waitFor({ state: 'visible', timeout: 5000 })
  } catch {
    const found = await page.locator(selector).allInnerTexts()
    throw new Error(
      `Expected ${selector} to ${contains ? 'contain' : 'read'} "${text}" on ${page.url()}; found ${JSON.stringify(found)}`
    )
  }
}

/** Reads the whole page once it has rendered `selector`; for "must not show" checks. */
export async function pageText(page: Page, selector = 'main h1') {
  await page.locator(selector).first().waitFor({ state: 'visible', timeout: 5000 })
  return page.locator('body').innerText()
}

export async function acceptInvitation(page: Page, password = PASSWORD, confirmation = password) {
  await page.getByLabel('Password (at least 12 characters)').fill(password)
  await page.getByLabel('Repeat the password').fill(confirmation)
  await page.getByRole('button', { name: 'Set password and open the portal' }).click()
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core over the page as it stands: the serious and critical WCAG violations, as readable lines. */
export async function seriousAxeViolations(page: Page) {
  // A message or toast still fading in has no contrast to measure yet (a spinner never ends).
  await page.waitForFunction(
    'document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Infinity)'
  )
  // Evaluated through the DevTools protocol, not as a <script>: pages with a strict CSP (the hosted forms) refuse those.
  if (!(await page.evaluate('typeof window.axe !== "undefined"')))
    await page.evaluate(await axeSource)
  const violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] =
    await page.evaluate('axe.run(document).then((result) => result.violations)')
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`
    )
}

/** How wide the page lays itself out, in CSS pixels: wider than the viewport means sideways scrolling. */
export function pageWidth(page: Page) {
  return page.evaluate<number>('document.documentElement.scrollWidth')
}

/** Signs in and waits until the portal opened, so the next visit carries the session. */
export async function signedIn(page: Page, email: string, password = PASSWORD) {
  await signIn(page, email, password)
  await page.locator('[data-test="current-user"]').waitFor()
}

/** No serious axe-core violation at a desktop's width, nor at a phone's, where nothing may overflow. */
export async function assertUsable(
  page: Page,
  assert: { deepEqual: Function; isAtMost: Function }
) {
  await page.setViewportSize({ width: 1280, height: 900 })
  assert.deepEqual(await seriousAxeViolations(page), [])
  await page.setViewportSize({ width: 390, height: 844 })
  assert.isAtMost(await pageWidth(page), 390)
  assert.deepEqual(await seriousAxeViolations(page), [])
  await page.setViewportSize({ width: 1280, height: 900 })
}

/** Types into a PrimeVue InputNumber as a person would (it formats as it goes) and leaves it. */
export async function typeNumber(page: Page, selector: string, value: string) {
  const input = page.locator(selector)
  await input.click()
  await input.press('ControlOrMeta+a')
  await input.press('Backspace')
  await input.pressSequentially(value)
  await input.press('Tab')
}

/** Answers the open confirmation dialog with the button of that name. */
export async function confirmDialog(page: Page, button: string) {
  await page.locator('.p-confirmdialog').getByRole('button', { name: button }).click()
}

/** The result of the last action, as a toast; closed so that a later check reads the next one. */
export async function toast(page: Page, text: string) {
  await expectText(page, '.p-toast-message', text, { contains: true })
  await page.locator('.p-toast-message').first().getByRole('button').click()
  await page.locator('.p-toast-message').first().waitFor({ state: 'detached' })
}
