import Bowser from 'bowser'

/**
 * "Firefox on Windows": enough for a user to recognise its own sign-ins in
 * the session list, too little to fingerprint anyone. The raw header is never stored.
 */
export function deviceSummary(userAgent: string | null | undefined) {
  const header = (userAgent ?? '').slice(0, 1024)
  if (!header) return 'Unknown device'
  const { browser, os } = Bowser.parse(header)
  if (browser.name && os.name) return `${browser.name} on ${os.name}`
  return browser.name ?? os.name ?? 'Unknown device'
}
