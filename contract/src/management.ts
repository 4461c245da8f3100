/**
 * The management listener of the control plane and the gateway: a second fastify server on a
 * port of its own, loopback by default, that serves metrics and health to Prometheus and the
 * kubelet apart from the public API, so metrics never reach API or MCP clients.
 *
 * It lives and dies with the public server: bound when that one becomes ready (a port in use
 * stops the start) and closed with it.
 */
import type { FastifyInstance } from "fastify";

export interface ManagementAddress {
  managementHost: string;
  /** 0 picks a free port (tests). */
  managementPort: number;
}

/** http://host:port of each public server's management listener, once it listens. */
const managementUrls = new WeakMap<FastifyInstance, string>();

/** Binds `management` when `app` is ready and closes it when `app` closes. */
export function attachManagementListener(
  app: FastifyInstance,
  management: FastifyInstance,
  address: ManagementAddress,
): void {
  app.addHook("onReady", async () => {
    const bound = await management.listen({ host: address.managementHost, port: address.managementPort });
    managementUrls.set(app, loopbackUrl(bound));
  });
  app.addHook("onClose", async () => {
    await management.close();
  });
}

/** Where the management listener attached to `app` listens (after `listen` or `ready`). */
export function managementUrl(app: FastifyInstance): string | undefined {
  return managementUrls.get(app);
}

/** The URL a local client reaches a listener at: an any-address bind becomes 127.0.0.1. */
export function loopbackUrl(address: string): string {
  return address.replace("0.0.0.0", "127.0.0.1").replace("[::]", "127.0.0.1");
}
