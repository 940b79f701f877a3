import { describe, expect, it } from "vitest";
import { classifyAddress, isPublicUnicast, literalHostAddress, refusedMessage } from "./ip-policy.server";

describe("classifyAddress", () => {
  const refused: Array<[string, string]> = [
    // IPv4
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"],
    ["169.254.0.1", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.10", "reserved"],
    ["198.51.100.7", "reserved"],
    ["203.0.113.9", "reserved"],
    ["198.18.0.1", "reserved"],
    ["240.0.0.1", "reserved"],
    ["192.0.0.8", "reserved"],
    // IPv6
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["ff02::1", "multicast"],
    ["fec0::1", "site-local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:8.8.8.8", "IPv4-mapped"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::7f00:1", "NAT64"],
    ["2002:7f00:1::1", "6to4"],
    ["2001:0:4136:e378::1", "Teredo"],
    ["2001:db8::1", "reserved"],
    ["100::1", "special-purpose"],
    ["[::1]", "loopback"],
  ];

  it.each(refused)("refuses %s (%s)", (address, kind) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (!verdict.allowed) expect(verdict.reason).toContain(kind);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "11.0.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
  ])("allows the public unicast address %s", (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
    expect(isPublicUnicast(address)).toBe(true);
  });

  it("refuses things that are not IP addresses at all", () => {
    for (const v of ["example.com", "", "999.1.1.1", "1.2.3", "localhost"])
      expect(classifyAddress(v), v).toEqual({ allowed: false, reason: "not an IP address" });
  });

  it("names each reason exactly, the range where it has no name of its own", () => {
    expect(classifyAddress("4000::1")).toEqual({ allowed: false, reason: "a special-purpose address" });
    expect(classifyAddress("c000::1")).toEqual({ allowed: false, reason: "a special-purpose address" });
    expect(classifyAddress("192.31.196.1")).toEqual({ allowed: false, reason: "a special-purpose address (as112)" });
    expect(classifyAddress("100::1")).toEqual({ allowed: false, reason: "a special-purpose address (discard)" });
    expect(classifyAddress("[fe80::1%eth0]")).toEqual({ allowed: false, reason: "a link-local address" });
  });
});

describe("literalHostAddress", () => {
  // The WHATWG parser turns every IPv4 spelling into dotted decimal before we look.
  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://0x7f000001/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://017700000001/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://0/", "0.0.0.0"],
    ["http://0xA9FEA9FE/", "169.254.169.254"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[0:0:0:0:0:0:0:1]/", "::1"],
  ])("%s dials %s, which is refused", (url, address) => {
    const literal = literalHostAddress(new URL(url));
    expect(literal).toBe(address);
    expect(classifyAddress(literal!).allowed).toBe(false);
  });

  it("is null for host names", () => {
    expect(literalHostAddress(new URL("https://example.com/feed"))).toBeNull();
    expect(literalHostAddress(new URL("http://localhost:3000/"))).toBeNull();
  });
});

describe("refusedMessage", () => {
  it("names the host, the address and why", () => {
    expect(refusedMessage("intranet.example", "10.0.0.5", "a private network address")).toBe(
      "Refused to connect to intranet.example (10.0.0.5): a private network address is not allowed",
    );
    expect(refusedMessage("127.0.0.1", "127.0.0.1", "a loopback address")).toBe(
      "Refused to connect to 127.0.0.1: a loopback address is not allowed",
    );
  });
});
