/**
 * GET /api/v1/gateways/:id/stream — the change stream (server-sent events), for a registered
 * gateway. It opens with a `snapshot` of the Expositions selecting the gateway (and of the
 * sessions ended on them), or, when `since` (or Last-Event-ID) is still resumable, with the
 * `changes` after it; then one `changes` event per committed change that concerns the gateway.
 * Event ids are revisions. See docs/change-stream.md. A stream ends as soon as the credential that
 * opened it is revoked or expires (auth/credential-watch.ts), and re-checks it before every event
 * and heartbeat.
 */

import { type changesEvent, gatewayId, type snapshotEvent } from "@atrium/contract";
import { type GatewayGroupSelector, selectsGateway } from "@atrium/crds";
import { and, eq } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../context.ts";
import { gateways } from "../db/schema.ts";
import { errors } from "../errors.ts";
import type { StreamEvent } from "../metrics.ts";
import type { CompiledEntry } from "../stream/compile.ts";
import { readEndedSessions } from "../stream/ended-sessions.ts";
import type { ChangeBatch, ChangeHub } from "../stream/hub.ts";
import { isLive } from "./gateways.ts";

/**
 * An event's JSON with its Expositions spliced in as compiled: their JSON is made once for every
 * stream the snapshot or change goes to, not again for each (`fields` is never empty).
 */
function withExpositions(fields: { revision: number }, name: "expositions" | "upserts", entries: CompiledEntry[]) {
  const expositions = entries.map((entry) => entry.json).join(",");
  return `{"${name}":[${expositions}],${JSON.stringify(fields).slice(1)}`;
}

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
        querystring: z.object({
          instanceId: z.string().min(8),
          since: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
        }),
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
      const selected = (entry: { selector: GatewayGroupSelector }) => selectsGateway(entry.selector, gateway.labels);
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
      // Headers go out at once: a gateway tells a live replica from a frozen one without waiting for the snapshot.
      raw.flushHeaders();
      // Revoked or expired meanwhile: the stream ends and the gateway's reconnect gets a 401.
      const principal = request.principal;
      let revoked = false;
      const endRevoked = () => {
        if (revoked) return;
        revoked = true;
        request.log.info({ gateway: request.params.id }, "change stream ended: its credential was revoked or expired");
        raw.end();
      };
      const stillValid = async () => {
        if (!revoked && !(await context.credentials.isStillValid(principal))) endRevoked();
        return !revoked;
      };
      const stopWatching = context.credentials.watch(principal, endRevoked);
      const send = (event: Exclude<StreamEvent, "heartbeat">, revision: number, json: string) => {
        if (raw.writableEnded) return; // ended (revoked, failed): batches queued before its close are dropped
        context.metrics.streamEvents.inc({ event });
        raw.write(`id: ${revision}\nevent: ${event}\ndata: ${json}\n\n`);
      };

      // Subscribe before reading, queueing batches until the opening event is out.
      const sent = new Map<string, string>(); // exposition id → the JSON the gateway has
      let revision = 0;
      let queue: Promise<void> = Promise.resolve();
      // After a resume we do not know what the gateway holds, so deletes are sent for every
      // touched Exposition it should not have; afterwards only for those it was sent.
      // Returns whether an event went out.
      const apply = async (batch: ChangeBatch, resuming = false): Promise<boolean> => {
        if (batch.revision <= revision) return false;
        const [compiled, announced] = await Promise.all([batch.compiled(), batch.endedSessions()]);
        const upserts: CompiledEntry[] = [];
        const deletes: string[] = [];
        const arrived = [];
        for (const id of batch.expositionIds) {
          const entry = compiled.get(id);
          if (entry && selected(entry)) {
            if (!sent.has(id)) arrived.push(id);
            if (sent.get(id) !== entry.json) upserts.push(entry);
            sent.set(id, entry.json);
          } else if (sent.delete(id) || resuming) {
            deletes.push(id);
          }
        }
        // An Exposition new to the gateway brings along the sessions ended on it before.
        const previouslyEnded = await readEndedSessions(db, organizationId, { expositionIds: arrived });
        const endedSessions = [...announced.filter(selected), ...previouslyEnded].map((entry) => entry.endedSession);
        revision = batch.revision;
        if (!upserts.length && !deletes.length && !endedSessions.length) return false;
        if (!(await stillValid())) return false;
        const fields = {
          revision,
          deletes,
          endedSessions,
          ...(batch.traceparent ? { traceparent: batch.traceparent } : {}),
          // A resumed stream's catch-up batch has none: its lag is the gateway's time away.
          ...(batch.committedAt !== undefined && !resuming ? { committedAt: batch.committedAt } : {}),
        } satisfies Omit<z.input<typeof changesEvent>, "upserts">;
        send("changes", revision, withExpositions(fields, "upserts", upserts));
        return true;
      };
      const enqueue = (batch: ChangeBatch) => {
        queue = queue
          .then(async () => {
            await apply(batch);
          })
          .catch((error: Error) => {
            request.log.error({ err: error }, "change stream failed; closing it so the gateway resumes");
            raw.end();
          });
      };
      const unsubscribe = hub.subscribe(organizationId, enqueue);
      const heartbeat = setInterval(() => {
        stillValid()
          .then((valid) => {
            if (!valid || raw.writableEnded) return;
            context.metrics.streamEvents.inc({ event: "heartbeat" });
            raw.write(": heartbeat\n\n");
          })
          .catch(() => raw.end());
      }, context.config.streamHeartbeatSeconds * 1000);
      open.add(raw);
      context.metrics.openStreams.inc();
      raw.on("close", () => {
        open.delete(raw);
        context.metrics.openStreams.dec();
        unsubscribe();
        stopWatching();
        clearInterval(heartbeat);
      });

      queue = queue
        .then(async () => {
          const resumable =
            since !== undefined &&
            since >= (await hub.oldestResumableRevision()) &&
            since <= (await hub.currentRevision());
          if (resumable) {
            revision = since;
            // Nothing that concerns the gateway since `since`: it continues from `revision`.
            const changed = await apply(await hub.touchedSince(organizationId, since), true);
            if (!changed) send("resumed", revision, JSON.stringify({ revision }));
            return;
          }
          revision = await hub.currentRevision();
          const [all, ended] = await Promise.all([
            hub.snapshot(organizationId, revision),
            readEndedSessions(db, organizationId, "all"),
          ]);
          const expositions = [...all.values()].filter(selected);
          for (const entry of expositions) sent.set(entry.exposition.id, entry.json);
          if (!(await stillValid())) return;
          const fields = {
            revision,
            endedSessions: ended.filter(selected).map((entry) => entry.endedSession),
          } satisfies Omit<z.input<typeof snapshotEvent>, "expositions">;
          send("snapshot", revision, withExpositions(fields, "expositions", expositions));
        })
        .catch((error: Error) => {
          // Without its opening event, the gateway would take the heartbeats that follow for being
          // current, missing what changed since `since`: end the stream, and it reconnects.
          request.log.error({ err: error }, "change stream failed to open; closing it so the gateway reconnects");
          raw.end();
        });
      await queue;
    },
  );
};
