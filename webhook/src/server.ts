/**
 * The webhook's HTTPS server: `POST /validate` (AdmissionReview v1), liveness and readiness under
 * /q/health, Prometheus metrics at /q/metrics, and the serving certificate swapped in place
 * (`setSecureContext`) when its files change. New connections get the new certificate; open
 * keep-alive connections finish with the one they started with.
 */
import type { Server } from "node:https";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyError, type FastifyInstance, LogController } from "fastify";
import { reviewAdmission } from "./admission.ts";
import type { WebhookConfig } from "./config.ts";
import { errors, WebhookError } from "./errors.ts";
import { WebhookMetrics } from "./metrics.ts";
import { readTlsPair, type TlsPair, watchTlsPair } from "./tls.ts";

/** An AdmissionReview carries the object and the old object; etcd takes objects up to ~1.5 MiB. */
const BODY_LIMIT_BYTES = 8 * 1024 * 1024;

export type WebhookServer = FastifyInstance<Server>;

export interface Webhook {
  app: WebhookServer;
  /** https://<host>:<port> */
  url: string;
  port: number;
  metrics: WebhookMetrics;
  /** The certificate pair served to new connections. */
  tls(): TlsPair;
  /** Compares the TLS files with the pair in use now, instead of at the next poll. */
  reloadTls(): Promise<void>;
  /** Stops following the TLS files and closes the server once the requests in flight are answered. */
  close(): Promise<void>;
}

export function buildWebhookServer(
  pair: TlsPair,
  metrics: WebhookMetrics,
  log: Pick<WebhookConfig, "logLevel" | "logFile">,
): WebhookServer {
  const app = Fastify({
    https: { cert: pair.cert, key: pair.key },
    logger: { level: log.logLevel, file: log.logFile },
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    // Probes and reviews would flood the log; refusals and failures are logged below.
    logController: new LogController({ disableRequestLogging: true }),
  });

  app.post("/validate", async (request) => {
    const { answer, request: review, message } = reviewAdmission(request.body);
    const allowed = answer.response.allowed;
    metrics.reviews.inc({ kind: review.kind.kind, operation: review.operation, allowed: String(allowed) });
    if (!allowed) {
      request.log.info(
        { uid: review.uid, kind: review.kind.kind, namespace: review.namespace, name: review.name, message },
        "admission refused",
      );
    }
    return answer;
  });
  app.get("/q/health/live", async () => ({ status: "UP" }));
  app.get("/q/health/ready", async () => ({ status: "UP" }));
  app.get("/q/metrics", async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );

  app.setNotFoundHandler(async (request, reply) => {
    const error = errors.routeNotFound(request.method, request.url);
    return reply.status(error.status).send(error.toBody());
  });
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    let answer: WebhookError;
    if (error instanceof WebhookError && error.status < 500) answer = error;
    else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      // fastify's own refusals: unparsable JSON, wrong content type, body too large.
      answer = new WebhookError(error.statusCode, error.code ?? "BAD_REQUEST", error.message);
    } else {
      request.log.error({ err: error }, "unexpected error");
      answer = errors.internal();
    }
    if (request.url === "/validate" && answer.status === 400) {
      metrics.malformedReviews.inc();
      request.log.warn({ code: answer.code, message: answer.message }, "malformed admission review");
    }
    return reply.status(answer.status).send(answer.toBody());
  });
  return app;
}

/** Reads the TLS pair, listens, and follows the TLS files until closed. */
export async function startWebhook(
  config: Pick<WebhookConfig, "host" | "port" | "tlsDir" | "tlsReloadIntervalMs" | "logLevel" | "logFile">,
): Promise<Webhook> {
  let current = await readTlsPair(config.tlsDir);
  const metrics = new WebhookMetrics();
  metrics.certificateExpiry.set(current.validTo.getTime() / 1000);
  const app = buildWebhookServer(current, metrics, config);
  const certificate = (pair: TlsPair) => ({
    fingerprint256: pair.fingerprint256,
    serialNumber: pair.serialNumber,
    notAfter: pair.validTo.toISOString(),
  });

  const watch = watchTlsPair({
    dir: config.tlsDir,
    intervalMs: config.tlsReloadIntervalMs,
    current,
    onChange(pair) {
      app.server.setSecureContext({ cert: pair.cert, key: pair.key });
      current = pair;
      metrics.certificateReloads.inc({ outcome: "loaded" });
      metrics.certificateExpiry.set(pair.validTo.getTime() / 1000);
      app.log.info({ certificate: certificate(pair) }, "serving certificate reloaded");
    },
    onError(error) {
      metrics.certificateReloads.inc({ outcome: "rejected" });
      app.log.error(
        { err: error, kept: certificate(current) },
        "new serving certificate refused; keeping the current one",
      );
    },
  });

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    watch.stop();
    throw error;
  }
  const port = (app.server.address() as AddressInfo).port;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  app.log.info({ certificate: certificate(current), tlsDir: config.tlsDir }, "serving certificate loaded");
  return {
    app,
    url: `https://${host}:${port}`,
    port,
    metrics,
    tls: () => current,
    reloadTls: () => watch.check(),
    async close() {
      watch.stop();
      await app.close();
    },
  };
}
