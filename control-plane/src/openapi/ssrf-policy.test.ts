import { describe, expect, it } from "vitest";
import { checkedAddress, type FetchPolicy } from "./fetch-document.ts";
import { OpenApiImportError } from "./import.ts";
import { isAllowed, nonPublicReason, parseAllowHosts } from "./ssrf-policy.ts";

/** Never resolves anything: URLs below are IP literals, and nothing here connects. */
const noDns: FetchPolicy = {
  allow: [],
  resolve: () => Promise.reject(new Error("no name resolution in this test")),
};

async function refusal(url: string, policy: FetchPolicy = noDns): Promise<string> {
  try {
    await checkedAddress(new URL(url), policy, url);
  } catch (error) {
    if (error instanceof OpenApiImportError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return "allowed";
}

describe("nonPublicReason", () => {
  it.each([
    ["0.0.0.0", "this host"],
    ["0.1.2.3", "this host"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.100.100.200", "carrier-grade NAT"],
    ["169.254.169.254", "link-local"],
    ["224.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["::", "this host"],
    ["::1", "loopback"],
    ["fd00:ec2::254", "unique-local"],
    ["fe80::1", "link-local"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:a9fe:a9fe", "link-local"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:a9fe:a9fe::1", "link-local"],
    ["2001:db8::1", "reserved"],
  ])("refuses %s (%s)", (address, reason) => {
    expect(nonPublicReason(address)).toContain(reason);
  });

  it.each(["93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8"])(
    "lets public %s through",
    (address) => {
      expect(nonPublicReason(address)).toBeUndefined();
    },
  );
});

describe("checkedAddress: every spelling of an address is judged by its value", () => {
  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://2852039166/",
    "http://0xA9FEA9FE/",
    "http://0xa9.0xfe.0xa9.0xfe/",
    "http://0251.0376.0251.0376/",
    "http://169.254.43518/",
    "http://[::ffff:169.254.169.254]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://0/",
    "http://[::]/",
    "http://[::1]:5555/",
    "http://127.1/",
    "http://017700000001/",
    "https://10.0.0.1:8443/openapi.json",
  ])("refuses %s without resolving or connecting", async (url) => {
    expect(await refusal(url)).toMatch(/^OPENAPI_URL_FORBIDDEN: /);
  });

  it("refuses a name when any of its addresses is refused", async () => {
    const policy: FetchPolicy = {
      allow: [],
      resolve: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "10.0.0.7", family: 4 },
      ],
    };
    const message = await refusal("http://specs.example.test/openapi.json", policy);
    expect(message).toContain("specs.example.test resolves to an address that is refused (it is a private address)");
    expect(message).toContain("ATRIUM_IMPORT_ALLOW_HOSTS");
  });

  it("opens what the operator's list opens, and only that", async () => {
    const resolve = async () => [{ address: "10.0.0.7", family: 4 }];
    const allow = (raw: string): FetchPolicy => ({ allow: parseAllowHosts(raw), resolve });
    expect(await refusal("http://specs.internal/", allow("specs.internal"))).toBe("allowed");
    expect(await refusal("http://SPECS.internal:8080/", allow("specs.internal:8080"))).toBe("allowed");
    expect(await refusal("http://specs.internal:8081/", allow("specs.internal:8080"))).toMatch(/FORBIDDEN/);
    expect(await refusal("http://other.internal/", allow("specs.internal"))).toMatch(/FORBIDDEN/);
    expect(await refusal("http://other.internal/", allow("10.0.0.0/8"))).toBe("allowed");
    expect(await refusal("http://other.internal/", allow("10.0.0.8"))).toMatch(/FORBIDDEN/);
    expect(await refusal("http://[fd00::5]:443/", allow("[fd00::/8]:443"))).toBe("allowed");
    expect(await refusal("http://[fd00::5]:444/", allow("[fd00::/8]:443"))).toMatch(/FORBIDDEN/);
  });
});

describe("parseAllowHosts", () => {
  it("reads host names, addresses and CIDR blocks, each with an optional port", () => {
    const entries = parseAllowHosts(" specs.internal , 127.0.0.1:7780,10.0.0.0/8,[::1]:8080, [fd00::/8] ");
    expect(entries.map((entry) => ({ ...entry, list: undefined }))).toEqual([
      { kind: "host", host: "specs.internal", list: undefined },
      { kind: "address", text: "127.0.0.1:7780", port: 7780, list: undefined },
      { kind: "address", text: "10.0.0.0/8", list: undefined },
      { kind: "address", text: "[::1]:8080", port: 8080, list: undefined },
      { kind: "address", text: "[fd00::/8]", list: undefined },
    ]);
    expect(isAllowed(entries, "x", "127.0.0.1", 7780)).toBe(true);
    expect(isAllowed(entries, "x", "127.0.0.1", 7781)).toBe(false);
    expect(isAllowed(entries, "x", "10.200.0.1", 80)).toBe(true);
    expect(parseAllowHosts("")).toEqual([]);
    expect(parseAllowHosts(undefined)).toEqual([]);
  });

  it.each(["::1", "10.0.0.0/33", "host:port", "host:70000", "http://specs.internal", "a_b.internal", "[::1"])(
    "refuses %s with the syntax in the message",
    (raw) => {
      expect(() => parseAllowHosts(raw)).toThrow(/ATRIUM_IMPORT_ALLOW_HOSTS: cannot read .* :port/);
    },
  );
});
