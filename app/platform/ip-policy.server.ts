import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Which addresses a server-side feed fetch may connect to: public unicast only. Everything
 * else (loopback, private, link-local and the cloud metadata address, carrier-grade NAT,
 * unique-local, multicast, unspecified, reserved/documentation ranges, and IPv6 forms that
 * embed an IPv4 address: mapped, compatible, NAT64, 6to4, Teredo) is refused.
 */

export type AddressVerdict = { allowed: true } | { allowed: false; reason: string };

const REASONS: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private network address",
  linkLocal: "a link-local address",
  carrierGradeNat: "a carrier-grade NAT address",
  uniqueLocal: "a private network address",
  multicast: "a multicast address",
  broadcast: "a broadcast address",
  unspecified: "an unspecified address",
  reserved: "a reserved address",
  deprecatedSiteLocal: "a site-local address",
  ipv4Mapped: "an IPv4-mapped address",
  rfc6145: "an IPv4-translated address",
  rfc6052: "a NAT64 address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
};

/** IPv6 global unicast lives in 2000::/3; nothing outside it is a public destination today. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");

/** Classifies a literal IP address (v4 or v6, with or without brackets or a zone id). */
export function classifyAddress(address: string): AddressVerdict {
  // Stryker disable next-line Regex: loosened anchors strip the same from any address (brackets only ever wrap it; a zone id runs to the end)
  const literal = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!net.isIP(literal)) return { allowed: false, reason: "not an IP address" };
  const parsed: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(literal);
  if (parsed.kind() === "ipv6") {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      // ::ffff:a.b.c.d is a.b.c.d on a dual-stack socket: judge the IPv4 address it carries.
      const inner = classifyAddress(v6.toIPv4Address().toString());
      return inner.allowed ? { allowed: false, reason: REASONS.ipv4Mapped } : inner;
    }
    const range = v6.range();
    if (range !== "unicast") return { allowed: false, reason: REASONS[range] ?? `a special-purpose address (${range})` };
    if (!v6.match(GLOBAL_UNICAST_V6)) return { allowed: false, reason: "a special-purpose address" };
    return { allowed: true };
  }
  const range = parsed.range();
  if (range !== "unicast") return { allowed: false, reason: REASONS[range] ?? `a special-purpose address (${range})` };
  return { allowed: true };
}

export function isPublicUnicast(address: string): boolean {
  return classifyAddress(address).allowed;
}

/**
 * The host of a URL as an IP literal, when it is one. The WHATWG URL parser already turns
 * decimal, octal and hex spellings (http://2130706433/, http://0x7f.1/, http://0177.0.0.1/)
 * into dotted IPv4, so this sees the address that would really be dialled.
 */
export function literalHostAddress(url: URL): string | null {
  // Stryker disable next-line Regex: a URL's hostname holds brackets only around an IPv6 address
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return net.isIP(host) ? host : null;
}

/** A message for a refused destination, naming the address and why. */
export function refusedMessage(host: string, address: string, reason: string): string {
  const shown = host === address ? address : `${host} (${address})`;
  return `Refused to connect to ${shown}: ${reason} is not allowed`;
}
