/** The portals' navigation: one list per role; a publisher's permissions hide what it may not use. */
export type PortalKind = 'operator' | 'compliance' | 'publisher' | 'buyer'
export type NavItem = { label: string; href: string; permission?: 'read' | 'submit' }

export const NAVIGATION: Record<PortalKind, NavItem[]> = {
  operator: [
    { label: 'Overview', href: '/operator' },
    { label: 'Publishers', href: '/operator/publishers' },
    { label: 'Leads', href: '/operator/leads' },
    { label: 'Review', href: '/operator/review' },
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
    { label: 'Leads', href: '/publisher/leads', permission: 'read' },
    { label: 'Keys', href: '/publisher/keys', permission: 'submit' },
    { label: 'Webhooks', href: '/publisher/webhooks', permission: 'read' },
    { label: 'Users', href: '/publisher/users', permission: 'read' },
    { label: 'Access log', href: '/publisher/access-log', permission: 'read' },
  ],
  buyer: [
    { label: 'Leads', href: '/buyer' },
    { label: 'Keys', href: '/buyer/keys' },
    { label: 'Webhooks', href: '/buyer/webhooks' },
  ],
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

/** The current page's item: the longest href that prefixes the URL. */
export function activeHref(items: NavItem[], url: string) {
  const path = url.split('?')[0]
  return items
    .filter((item) => path === item.href || path.startsWith(`${item.href}/`))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href
}
