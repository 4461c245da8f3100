/**
 * HTTP from the test process to Kubernetes Services, the same way on every environment: a Service
 * port has one URL, `http://<service>.<namespace>.svc:<port>`, and `fetch` reaches it.
 * - On the local cluster the name is resolved by the cluster's DNS and the connection goes to the
 *   Service's ClusterIP, which this machine routes into the cluster (fixtures/cluster-http.ts).
 * - On kind the host cannot route to Service addresses: `fetch` sends the request to a
 *   `kubectl port-forward` of that Service port instead, opened on first use and opened again once
 *   the previous one has ended or failed a request (port-forward pins one pod, which an upgrade
 *   replaces; callers retry requests that got no answer, as they do for kube-proxy).
 */
import { clusterHttp } from "./fixtures/cluster-http.ts";
import { type KubectlAccess, type PortForward, portForward } from "./port-forward.ts";

export interface ServiceHttp {
  /** `http://<service>.<namespace>.svc:<port>`: the URL of a Service port, for `fetch`. */
  serviceUrl(namespace: string, service: string, port: number): string;
  /** fetch() that reaches the URLs of serviceUrl (and any other URL as usual). */
  fetch: typeof globalThis.fetch;
  /** Closes the connections and port-forwards. */
  close(): Promise<void>;
}

/** What a URL of serviceUrl names, or undefined for any other URL. */
function serviceOf(url: URL): { namespace: string; service: string; port: number } | undefined {
  const match = /^([a-z0-9-]+)\.([a-z0-9-]+)\.svc(\.cluster\.local)?$/.exec(url.hostname);
  if (!match?.[1] || !match[2]) return undefined;
  // URL drops a scheme's default port (`:80` of http), so it is read back from the scheme.
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { service: match[1], namespace: match[2], port };
}

function serviceUrl(namespace: string, service: string, port: number): string {
  return `http://${service}.${namespace}.svc:${port}`;
}

/** The URL of a fetch() input: URLs and strings only (the tests and the MCP SDK pass no Request). */
function urlOf(input: string | URL | Request): URL {
  if (input instanceof Request) throw new Error("service fetch takes a URL, not a Request");
  return new URL(input);
}

/** The local cluster: Service names resolved by the cluster's DNS, found at `dnsServer()` on first use. */
export function routedServiceHttp(dnsServer: () => Promise<string>): ServiceHttp {
  let routed: Promise<ReturnType<typeof clusterHttp>> | undefined;
  const http = () => {
    routed ??= dnsServer().then((address) => clusterHttp(address));
    return routed;
  };
  return {
    serviceUrl,
    fetch: (async (input, init) => (await http()).fetch(input, init)) as typeof globalThis.fetch,
    close: async () => {
      if (routed) await (await routed).close();
    },
  };
}

/** kind: one `kubectl port-forward` (port-forward.ts) per Service port, with `kubectl` of `env`. */
export function forwardedServiceHttp(env: KubectlAccess): ServiceHttp {
  const forwards = new Map<string, Promise<PortForward>>();
  const current = async (namespace: string, service: string, port: number): Promise<PortForward> => {
    const key = `${namespace}/${service}:${port}`;
    const known = forwards.get(key);
    if (known) {
      const open = await known.catch(() => undefined);
      if (open?.running()) return open;
    }
    const opened = portForward(env, namespace, `service/${service}`, port);
    forwards.set(key, opened);
    return opened;
  };
  const forwardedFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = urlOf(input);
    const target = serviceOf(url);
    if (!target) return globalThis.fetch(input, init);
    const forward = await current(target.namespace, target.service, target.port);
    try {
      return await globalThis.fetch(new URL(`${url.pathname}${url.search}`, forward.url), init);
    } catch (error) {
      // No answer: the pod behind the forward may be gone; the next request opens a new forward.
      await forward.close();
      throw error;
    }
  };
  return {
    serviceUrl,
    fetch: forwardedFetch as typeof globalThis.fetch,
    close: async () => {
      const all = [...forwards.values()];
      forwards.clear();
      await Promise.all(all.map(async (opened) => (await opened.catch(() => undefined))?.close()));
    },
  };
}
