/**
 * Starts a gateway: loads its cached configuration, starts syncing with the control plane,
 * and serves. Used by main.ts and by tests.
 */
import type { FastifyInstance } from "fastify";
import { AuditLog } from "./audit.ts";
import { BearerVerifiers } from "./auth/bearer.ts";
import { ClientAuthenticator } from "./auth/client-auth.ts";
import { DEFAULT_ISSUER_KEY_OPTIONS } from "./auth/issuer-keys.ts";
import { Backends } from "./backend.ts";
import type { GatewayConfig } from "./config.ts";
import { elicitationServices } from "./elicitation/services.ts";
import { DEFAULT_ENV_ALLOW, envPolicy } from "./env-policy.ts";
import { SessionSigner } from "./mcp/sessions.ts";
import { GatewayMetrics } from "./metrics.ts";
import { ExpositionRegistry } from "./registry.ts";
import { buildGatewayServer } from "./server.ts";
import { ControlPlaneSync } from "./sync.ts";

export const VERSION = "0.1.0";

export interface Gateway {
  app: FastifyInstance;
  registry: ExpositionRegistry;
  sync: ControlPlaneSync;
  url: string;
  close(): Promise<void>;
}

export async function startGateway(
  config: GatewayConfig,
  options: { logStream?: NodeJS.WritableStream } = {},
): Promise<Gateway> {
  // Without a cluster key, plans that elicit each user's backend credential are refused (fail closed).
  const elicitation = config.clusterKey ? elicitationServices(config.clusterKey, config) : undefined;
  const registry = new ExpositionRegistry(envPolicy(config.envAllow ?? DEFAULT_ENV_ALLOW), {
    canElicit: elicitation !== undefined,
    ...(config.tlsFileDirs ? { tlsFileDirs: config.tlsFileDirs } : {}),
  });
  // Read a little past the result limit, so truncated results can say how much was cut.
  const backends = new Backends({ maxBodyBytes: config.maxResultBytes * 4 });
  let sync: ControlPlaneSync | undefined;
  // Reported so that the other replicas refuse it too; the DELETE does not wait for that.
  const sessions = new SessionSigner(config.sessionKey, (ended) => sync?.reportEndedSession(ended));
  const metrics = new GatewayMetrics();
  const audit = new AuditLog({
    file: config.auditFile,
    otlp: Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT),
    serviceVersion: VERSION,
  });
  const auth = new ClientAuthenticator(
    new BearerVerifiers({
      ...DEFAULT_ISSUER_KEY_OPTIONS,
      cooldownMs: config.jwksCooldownMs,
      cacheSize: config.tokenCacheSize,
    }),
  );
  const app = await buildGatewayServer({
    config,
    registry,
    backends,
    sessions,
    metrics,
    version: VERSION,
    isReady: () => sync?.ready ?? false,
    readinessDetails: () => sync?.details() ?? {},
    auth,
    audit,
    elicitation: elicitation?.services,
    logStream: options.logStream,
  });
  if (!config.sessionKey) {
    app.log.warn("ATRIUM_GATEWAY_SESSION_KEY is not set: 2025-era sessions only work on this replica");
  }
  sync = new ControlPlaneSync(config, registry, sessions, app.log, VERSION, (committedAt) =>
    metrics.changeApplied(committedAt),
  );
  metrics.collect(sync, registry, backends.breakers);
  const address = await app.listen({ host: config.host, port: config.port });
  sync.start();
  return {
    app,
    registry,
    sync,
    url: address.replace("0.0.0.0", "127.0.0.1").replace("[::]", "127.0.0.1"),
    close: async () => {
      await sync?.stop();
      await app.close();
      await backends.close();
      await elicitation?.close();
      await audit.close();
    },
  };
}
