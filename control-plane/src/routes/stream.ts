/**
 * GET /api/v1/gateways/:id/stream — the change stream (server-sent events), for a registered
 * gateway. It opens with a `snapshot` of the Expositions selecting the gateway, or, when
 * `since` (or Last-Event-ID) is still resumable, with the `changes` after it; then one
 * `changes` event per committed change. Event ids are revisions. See docs/change-stream.md.
 */
import { selectsGateway } from "@atrium/crds";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { gateways } from "../db/schema.ts";
import { errors } from "../errors.ts";
import type { CompiledEntry } from "../stream/compile.ts";
import { compileExpositions } from "../stream/compile.ts";
import { gatewayId } from "../stream/contract.ts";
import type { ChangeBatch, ChangeHub } from "../stream/hub.ts";
import { isLive } from "./gateways.ts";

const HEARTBEAT_MS = 15_000;

export const streamRoutes: FastifyPluginAsync<{ context: AppContext; hub: ChangeHub }> = async (
  base,
  { context, hub },
) => {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const { db } = context.database;
  // Streams never finish on their own: end them when the server closes, so shutdown does not
  // wait for them and gateways reconnect (to another replica, or to this one once back).
  const open = new Set<import("node:http").ServerResponse>();
  app.addHook("preClose", async () => {
    for (const response of open) response.end();
  });

  app.get(
    "/gateways/:id/stream",
    {
      schema: {
        params: z.object({ id: gatewayId }),
        querystring: z.object({ instanceId: z.string().min(8), since: z.coerce.number().int().min(0).optional() }),
      },
    },
    async (request, reply) => {
      const organizationId = request.principal.organizationId;
      const [gateway] = await db
        .select()
        .from(gateways)
        .where(and(eq(gateways.organizationId, organizationId), eq(gateways.id, request.params.id)));
      if (
        !gateway ||
        gateway.instanceId !== request.query.instanceId ||
        !isLive(gateway, context.config.gatewayStaleSeconds)
      ) {
        throw errors.notFound("Gateway registration", request.params.id);
      }
      const selected = (entry: CompiledEntry) => selectsGateway(entry.selector, gateway.labels);
      const lastEventId = Number(request.headers["last-event-id"]);
      const since = request.query.since ?? (Number.isInteger(lastEventId) ? lastEventId : undefined);

      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-store",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      const send = (event: string, revision: number, data: unknown) =>
        raw.write(`id: ${revision}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

      // Subscribe before reading, queueing batches until the opening event is out.
      const sent = new Map<string, string>(); // exposition id → the JSON the gateway has
      let revision = 0;
      let queue: Promise<void> = Promise.resolve();
      // After a resume we do not know what the gateway holds, so deletes are sent for every
      // touched Exposition it should not have; afterwards only for those it was sent.
      const apply = async (batch: Pick<ChangeBatch, "revision" | "expositionIds" | "compiled">, resuming = false) => {
        if (batch.revision <= revision) return;
        const compiled = await batch.compiled();
        const upserts = [];
        const deletes = [];
        for (const id of batch.expositionIds) {
          const entry = compiled.get(id);
          if (entry && selected(entry)) {
            if (sent.get(id) !== entry.json) upserts.push(entry.exposition);
            sent.set(id, entry.json);
          } else if (sent.delete(id) || resuming) {
            deletes.push(id);
          }
        }
        revision = batch.revision;
        if (upserts.length || deletes.length) send("changes", revision, { revision, upserts, deletes });
      };
      const enqueue = (batch: ChangeBatch) => {
        queue = queue
          .then(() => apply(batch))
          .catch((error: Error) => {
            request.log.error({ err: error }, "change stream failed; closing it so the gateway resumes");
            raw.end();
          });
      };
      const unsubscribe = hub.subscribe(organizationId, enqueue);
      const heartbeat = setInterval(() => raw.write(": heartbeat\n\n"), HEARTBEAT_MS);
      open.add(raw);
      raw.on("close", () => {
        open.delete(raw);
        unsubscribe();
        clearInterval(heartbeat);
      });

      queue = queue.then(async () => {
        const resumable =
          since !== undefined &&
          since >= (await hub.oldestResumableRevision()) &&
          since <= (await hub.currentRevision());
        if (resumable) {
          revision = since;
          const touched = await hub.touchedSince(organizationId, since);
          await apply(
            {
              ...touched,
              compiled: () => compileExpositions(db, context.cipher, organizationId, touched.expositionIds),
            },
            true,
          );
          if (revision === since) raw.write(`id: ${revision}\nevent: resumed\ndata: {"revision":${revision}}\n\n`);
          return;
        }
        revision = await hub.currentRevision();
        const all = await compileExpositions(db, context.cipher, organizationId);
        const expositions = [...all.values()].filter(selected);
        for (const entry of expositions) sent.set(entry.exposition.id, entry.json);
        send("snapshot", revision, { revision, expositions: expositions.map((entry) => entry.exposition) });
      });
      await queue;
    },
  );
};
