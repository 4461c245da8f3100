/**
 * Which addresses the control plane may download from (URL import; any future outbound fetch).
 * By default only public unicast addresses: loopback, "this host", private, CGNAT, link-local
 * (cloud metadata included), unique-local, multicast, documentation and other reserved ranges
 * are refused. An IPv4 address embedded in IPv6 (mapped, NAT64, 6to4) is judged as IPv4.
 *
 * `ATRIUM_IMPORT_ALLOW_HOSTS` opens what an operator chooses: a comma-separated list of
 * - host names (`specs.internal`), matched exactly, case-insensitively, whatever they resolve to;
 * - IP addresses (`10.1.2.3`, `[fd00::1]`) or CIDR blocks (`10.0.0.0/8`, `[fd00::/8]`);
 * each optionally followed by `:port` (`127.0.0.1:7780`), which then limits the entry to that port.
 */
import { BlockList, isIP } from "node:net";

export type AllowEntry =
  | { kind: "host"; host: string; port?: number }
  | { kind: "address"; list: BlockList; port?: number; text: string };

/** Why an address is refused, or undefined when it is public. */
export function nonPublicReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return reasonV4(address);
  if (family !== 6) return "it is not an IP address";
  const embedded = embeddedIpv4(address);
  if (embedded !== undefined) return reasonV4(embedded);
  for (const [reason, list] of refusedV6) if (list.check(address, "ipv6")) return reason;
  return undefined;
}

function reasonV4(address: string): string | undefined {
  for (const [reason, list] of refusedV4) if (list.check(address, "ipv4")) return reason;
  return undefined;
}

function blocks(family: "ipv4" | "ipv6", cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = "", prefix = ""] = cidr.split("/");
    list.addSubnet(network, Number(prefix), family);
  }
  return list;
}

const refusedV4: Array<[string, BlockList]> = [
  ["it is 'this host' (0.0.0.0/8)", blocks("ipv4", ["0.0.0.0/8"])],
  ["it is a loopback address", blocks("ipv4", ["127.0.0.0/8"])],
  ["it is a private address", blocks("ipv4", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"])],
  ["it is a carrier-grade NAT address (100.64.0.0/10)", blocks("ipv4", ["100.64.0.0/10"])],
  ["it is a link-local address (cloud metadata services live there)", blocks("ipv4", ["169.254.0.0/16"])],
  [
    "it is a reserved address",
    blocks("ipv4", [
      "192.0.0.0/24",
      "192.0.2.0/24",
      "192.88.99.0/24",
      "198.18.0.0/15",
      "198.51.100.0/24",
      "203.0.113.0/24",
      "224.0.0.0/4",
      "240.0.0.0/4",
    ]),
  ],
];

const refusedV6: Array<[string, BlockList]> = [
  ["it is 'this host' (::)", blocks("ipv6", ["::/128"])],
  ["it is a loopback address", blocks("ipv6", ["::1/128"])],
  ["it is a unique-local (private) address", blocks("ipv6", ["fc00::/7"])],
  ["it is a link-local address", blocks("ipv6", ["fe80::/10"])],
  [
    "it is a reserved address",
    blocks("ipv6", ["::/96", "100::/64", "2001::/23", "2001:db8::/32", "ff00::/8", "fec0::/10"]),
  ],
];

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) or 6to4 (2002::/16) one. */
function embeddedIpv4(address: string): string | undefined {
  const groups = expandIpv6(address);
  if (!groups) return undefined;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1 ?? 0, g2 ?? 0);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (with or without a dotted IPv4 tail). */
function expandIpv6(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split(".").map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? first : [...first, ...Array(8 - first.length - last.length).fill(0), ...last];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group)) ? groups : undefined;
}

/** Parses ATRIUM_IMPORT_ALLOW_HOSTS; an entry it cannot read is an error (a setting not enforced is refused). */
export function parseAllowHosts(raw: string | undefined): AllowEntry[] {
  if (!raw) return [];
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .map(parseAllowEntry);
}

function parseAllowEntry(entry: string): AllowEntry {
  const invalid = () =>
    new Error(
      `ATRIUM_IMPORT_ALLOW_HOSTS: cannot read '${entry}': give host names, IP addresses or CIDR blocks, each with an optional :port, separated by commas (IPv6 in brackets: [fd00::/8]:443)`,
    );
  let value = entry;
  let portText: string | undefined;
  if (entry.startsWith("[")) {
    const close = entry.indexOf("]");
    if (close < 0) throw invalid();
    value = entry.slice(1, close);
    const rest = entry.slice(close + 1);
    if (rest !== "") {
      if (!rest.startsWith(":")) throw invalid();
      portText = rest.slice(1);
    }
  } else {
    const colon = entry.lastIndexOf(":");
    if (colon >= 0) {
      if (entry.indexOf(":") !== colon) throw invalid(); // a bare IPv6 address: brackets are needed
      value = entry.slice(0, colon);
      portText = entry.slice(colon + 1);
    }
  }
  let port: number | undefined;
  if (portText !== undefined) {
    port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw invalid();
  }
  const withPort = port === undefined ? {} : { port };
  const [network = "", prefixText, extra] = value.split("/");
  const family = isIP(network);
  if (family !== 0) {
    if (extra !== undefined) throw invalid();
    const type = family === 4 ? "ipv4" : "ipv6";
    const prefix = prefixText === undefined ? (family === 4 ? 32 : 128) : Number(prefixText);
    if (prefixText !== undefined && (!/^\d+$/.test(prefixText) || prefix > (family === 4 ? 32 : 128))) throw invalid();
    const list = new BlockList();
    list.addSubnet(network, prefix, type);
    return { kind: "address", list, text: entry, ...withPort };
  }
  if (prefixText !== undefined || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(value)) {
    throw invalid();
  }
  return { kind: "host", host: value.toLowerCase(), ...withPort };
}

/** Whether the operator's list opens `address`, reached as `host` on `port`. */
export function isAllowed(entries: AllowEntry[], host: string, address: string, port: number): boolean {
  return entries.some((entry) => {
    if (entry.port !== undefined && entry.port !== port) return false;
    if (entry.kind === "host") return entry.host === host.toLowerCase();
    const family = isIP(address);
    return family !== 0 && entry.list.check(address, family === 4 ? "ipv4" : "ipv6");
  });
}
