import { test } from '@japa/runner'

test('smoke', async ({ visit }) => {
  const page = await visit('/login')
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => console.log('console', m.type(), m.text()))
  await page.waitForSelector('h1')
  console.log(await page.content())
  console.log(errors)
})
