import ipaddr from 'ipaddr.js';
import { OutboundError } from './outbound-error.js';

/** Cloud metadata endpoints are refused even inside an allowed CIDR range: only naming the
 * exact address or host in the allow-list opens them. */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254', '168.63.129.16']);
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal', 'metadata.azure.com']);

const IPV4_REASONS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address',
  private: 'a private network address',
};
const IPV6_REASONS: Record<string, string> = {
  unspecified: 'an unspecified address',
  linkLocal: 'a link-local address',
  multicast: 'a multicast address',
  loopback: 'a loopback address',
  uniqueLocal: 'a private network (unique local) address',
  deprecatedSiteLocal: 'a site-local address',
};
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Where outbound requests may go: public addresses, plus what `OUTBOUND_ALLOW` names (host
 * names, `*.suffix` patterns, exact addresses, CIDR ranges). Cloud metadata endpoints stay
 * closed unless named exactly. */
export class AddressPolicy {
  private readonly allowHosts = new Set<string>();
  private readonly allowSuffixes: string[] = [];
  private readonly allowCidrs: Cidr[] = [];
  private readonly allowExact = new Set<string>();

  constructor(allow: readonly string[]) {
    for (const raw of allow) this.add(raw);
  }

  /** Throws for host names that only ever mean this machine or its cloud (no DNS asked). */
  checkHostName(host: string): void {
    if (METADATA_HOSTS.has(host) || host === 'localhost' || host.endsWith('.localhost')) {
      throw new OutboundError('forbidden_address', `${host} is an internal host name; Vigil does not send requests there.`);
    }
  }

  /** Throws unless `address` is public or allow-listed. */
  checkAddress(address: string, host: string): void {
    const addr = unmapped(ipaddr.parse(address));
    const normalized = addr.toString();
    if (this.allowExact.has(normalized)) return;
    const where = host === address ? address : `${host} (${address})`;
    if (METADATA_ADDRESSES.has(normalized)) {
      throw new OutboundError('forbidden_address', `${where} is a cloud metadata address; Vigil does not send requests there.`);
    }
    if (this.allowCidrs.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) return;
    const why = forbiddenReason(addr);
    if (why) {
      throw new OutboundError('forbidden_address', `${where} is ${why}; Vigil only sends requests to public addresses (an administrator can allow it with OUTBOUND_ALLOW).`);
    }
  }

  /** Whether `host` (a name or an address literal) is on the allow-list itself. */
  hostAllowed(host: string): boolean {
    if (this.allowHosts.has(host) || this.allowSuffixes.some((s) => host.endsWith(s))) return true;
    if (!ipaddr.isValid(host)) return false;
    // An address literal passes here only when listed exactly; ranges are checked in checkAddress.
    return this.allowExact.has(unmapped(ipaddr.parse(host)).toString());
  }

  private add(raw: string): void {
    const entry = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');
    if (!entry) return;
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`OUTBOUND_ALLOW entry "${raw}" is not a valid CIDR range.`);
      this.allowCidrs.push(ipaddr.parseCIDR(entry));
    } else if (ipaddr.isValid(entry)) {
      this.allowExact.add(ipaddr.parse(entry).toString());
    } else if (/^\*\.[a-z0-9.-]+$/.test(entry)) {
      this.allowSuffixes.push(entry.slice(1));
    } else if (/^[a-z0-9_.-]+$/.test(entry)) {
      this.allowHosts.add(entry.replace(/\.$/, ''));
    } else {
      throw new Error(`OUTBOUND_ALLOW entry "${raw}" is not a host name, an IP address or a CIDR range.`);
    }
  }
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries. */
function unmapped(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return addr instanceof ipaddr.IPv6 && addr.isIPv4MappedAddress() ? addr.toIPv4Address() : addr;
}

function forbiddenReason(addr: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = addr.range();
  if (addr.kind() === 'ipv4') {
    if (range === 'unicast') return undefined;
    return IPV4_REASONS[range] ?? `a reserved address (${range})`;
  }
  if (IPV6_REASONS[range]) return IPV6_REASONS[range];
  // Only global unicast (2000::/3) is public; the rest is special-purpose or embeds an IPv4
  // address (NAT64, 6to4, Teredo, IPv4-compatible) that could point anywhere.
  if (range !== 'unicast' || !addr.match(GLOBAL_UNICAST_V6)) return `a special-purpose IPv6 address (${range})`;
  return undefined;
}
