import ipaddr from 'ipaddr.js'

type Block = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** True when the text is an IPv4 or IPv6 CIDR block or a single address. */
export function isCidr(text: string) {
  try {
    parseBlock(text)
    return true
  } catch {
    return false
  }
}

/** The stored form: the network address and prefix, e.g. `203.0.113.0/24`, `2001:db8::/32`. */
export function normaliseCidr(text: string) {
  const [address, bits] = parseBlock(text)
  const network =
    address.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${address}/${bits}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${address}/${bits}`)
  return `${network.toString()}/${bits}`
}

export function allows(allowlist: string[], ip: string) {
  if (allowlist.length === 0) return true
  let address: ipaddr.IPv4 | ipaddr.IPv6
  try {
    address = ipaddr.process(ip)
  } catch {
    return false
  }
  return allowlist.some((text) => {
    const [network, bits] = parseBlock(text)
    return address.kind() === network.kind() && address.match([network, bits] as any)
  })
}

/** IPv4-mapped IPv6 blocks are treated as the IPv4 blocks they stand for. */
function parseBlock(text: string): Block {
  const [network, bits] = text.includes('/')
    ? ipaddr.parseCIDR(text)
    : ([ipaddr.parse(text), undefined] as const)
  if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress()) {
    return [(network as ipaddr.IPv6).toIPv4Address(), (bits ?? 128) - 96]
  }
  return [network, bits ?? (network.kind() === 'ipv4' ? 32 : 128)]
}

/** Whether the block `inner` lies wholly inside the block `outer` (same family, no wider). */
export function containsBlock(outer: string, inner: string) {
  const [network, bits] = parseBlock(outer)
  const [address, innerBits] = parseBlock(inner)
  return (
    address.kind() === network.kind() && innerBits >= bits && address.match([network, bits] as any)
  )
}
