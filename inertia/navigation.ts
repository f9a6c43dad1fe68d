/** The portals' navigation: one list per role; a publisher's permissions hide what it may not use. */
export type PortalKind = 'operator' | 'compliance' | 'publisher' | 'buyer' | 'label_manager'
export type NavItem = {
  label: string
  href: string
  permission?: 'read' | 'submit'
  /** A count from the shared props shown beside the label ("Disputes 2"), and what it counts. */
  badge?: { prop: 'disputes_waiting'; words: string }
  /** Other addresses whose pages belong to this item (a payout's page to "Settlement"). */
  also?: string[]
}

export const NAVIGATION: Record<PortalKind, NavItem[]> = {
  operator: [
    { label: 'Overview', href: '/operator' },
    { label: 'Reports', href: '/operator/reports' },
    { label: 'Publishers', href: '/operator/publishers' },
    { label: 'Leads', href: '/operator/leads' },
    { label: 'Review', href: '/operator/review' },
    { label: 'Disputes', href: '/operator/disputes' },
    { label: 'Settlement', href: '/operator/settlement' },
    { label: 'Payouts', href: '/operator/payouts' },
    { label: 'Forms', href: '/operator/forms' },
    { label: 'Uploads', href: '/operator/uploads' },
    { label: 'Buyers', href: '/operator/buyers' },
    { label: 'Routing', href: '/operator/routing-rules' },
    { label: 'Labels', href: '/operator/labels' },
    { label: 'Keys', href: '/operator/keys' },
    { label: 'Webhooks', href: '/operator/webhooks' },
    { label: 'Users', href: '/operator/users' },
    { label: 'Access log', href: '/operator/access-log' },
  ],
  publisher: [
    { label: 'Home', href: '/publisher' },
    { label: 'Dashboard', href: '/publisher/dashboard', permission: 'read' },
    { label: 'Leads', href: '/publisher/leads', permission: 'read' },
    { label: 'Forms', href: '/publisher/forms', permission: 'read' },
    { label: 'Uploads', href: '/publisher/uploads', permission: 'read' },
    {
      label: 'Settlement',
      href: '/publisher/settlement',
      permission: 'read',
      also: ['/publisher/payouts'],
    },
    {
      label: 'Disputes',
      href: '/publisher/disputes',
      permission: 'read',
      badge: { prop: 'disputes_waiting', words: 'waiting for your answer' },
    },
    { label: 'Keys', href: '/publisher/keys', permission: 'submit' },
    { label: 'Posting spec', href: '/publisher/posting-spec', permission: 'read' },
    { label: 'Webhooks', href: '/publisher/webhooks', permission: 'read' },
    { label: 'Users', href: '/publisher/users', permission: 'read' },
    { label: 'Access log', href: '/publisher/access-log', permission: 'read' },
  ],
  buyer: [
    { label: 'Leads', href: '/buyer' },
    { label: 'Rules', href: '/buyer/rules' },
    { label: 'Destinations', href: '/buyer/destinations' },
    { label: 'Disputes', href: '/buyer/disputes' },
    { label: 'Funds', href: '/buyer/funds' },
    { label: 'Statement', href: '/buyer/statement' },
    { label: 'Keys', href: '/buyer/keys' },
    { label: 'Webhooks', href: '/buyer/webhooks' },
  ],
  // A label's manager: its label's publishers' figures.
  label_manager: [{ label: 'Dashboard', href: '/label_manager' }],
  compliance: [
    { label: 'Audit', href: '/compliance' },
    { label: 'Exports', href: '/compliance/exports' },
  ],
}

export function navigationFor(kind: PortalKind, permissions: readonly string[]) {
  return NAVIGATION[kind].filter(
    (item) => !item.permission || permissions.includes(item.permission)
  )
}

/** The current page's item: the one with the longest href (or `also` address) that prefixes the URL. */
export function activeHref(items: NavItem[], url: string) {
  const path = url.split('?')[0]
  const under = (href: string) => path === href || path.startsWith(`${href}/`)
  return items
    .flatMap((item) =>
      [item.href, ...(item.also ?? [])].filter(under).map((prefix) => ({ item, prefix }))
    )
    .sort((a, b) => b.prefix.length - a.prefix.length)[0]?.item.href
}
