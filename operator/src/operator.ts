/**
 * The operator: informers feed a per-key work queue; while this replica holds the leader
 * Lease, workers reconcile the queued keys into the control plane. Every replica keeps warm
 * caches and answers health and metrics; only the leader reconciles, and on becoming leader it
 * queues every resource it knows (nothing is lost while it stood by).
 *
 * An event queues the object itself and the resources that reference it (a Service turning
 * READY releases its waiting plans; a changed Secret reaches the SecretSources reading it); a
 * deletion also queues what the deleted resource referenced (a plan kept by its Expositions
 * can go as soon as they are gone).
 */
import type { AtriumKind } from "@atrium/crds";
import { KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import type { OperatorConfig } from "./config.ts";
import { ControlPlaneClient } from "./control-plane/client.ts";
import { describeError } from "./errors.ts";
import { buildHealthServer } from "./health-server.ts";
import { KubeApi } from "./kube/api.ts";
import { type InformerEvent, InformerSet } from "./kube/informers.ts";
import { type AtriumObject, atriumKinds, isAtriumKind, objectKey, type WatchedKind } from "./kube/objects.ts";
import { LeaderElector } from "./leader-election.ts";
import type { Log } from "./log.ts";
import { OperatorMetrics } from "./metrics.ts";
import type { ReconcileContext } from "./reconcile/context.ts";
import { dependentKeys, referencesOf } from "./reconcile/dependencies.ts";
import { reconcile } from "./reconcile/reconciler.ts";
import { inReconcileSpan } from "./reconcile/span.ts";
import { tokenSource } from "./token.ts";
import { WorkQueue } from "./work-queue.ts";

export interface OperatorOptions {
  /** Defaults to the standard places: KUBECONFIG, ~/.kube/config, or in-cluster. */
  kubeConfig?: KubeConfig;
  /** Defaults to the health server's logger (pino, at config.logLevel). */
  log?: Log;
  /** Adds process metrics (memory, CPU, event loop) to /q/metrics; once per process. */
  processMetrics?: boolean;
}

export interface Operator {
  /** http://host:port of /q/health/* and /q/metrics. */
  url: string;
  identity: string;
  metrics: OperatorMetrics;
  isLeader(): boolean;
  /** Reconciles this replica has run since it started. */
  reconcileCount(): number;
  /**
   * Stops reconciling, then watching, then serving. With `release: false` the Lease is not
   * handed back, as if the process had crashed (tests).
   */
  stop(options?: { release?: boolean }): Promise<void>;
}

export async function startOperator(config: OperatorConfig, options: OperatorOptions = {}): Promise<Operator> {
  const kubeConfig = options.kubeConfig ?? defaultKubeConfig();
  const queue = new WorkQueue(config.retry);
  const metrics = new OperatorMetrics({ queueDepth: () => queue.depth, queueDelayed: () => queue.delayed });
  if (options.processMetrics) metrics.collectProcessMetrics();
  let leading = false;
  const stopped = new AbortController();
  let reconcileCount = 0;

  const app = buildHealthServer({
    logLevel: config.logLevel,
    logFile: config.logFile,
    metrics,
    state: { synced: () => informers.synced, leader: () => leading },
  });
  const log: Log = options.log ?? app.log;
  const kube = new KubeApi(kubeConfig);
  const controlPlane = new ControlPlaneClient({
    url: config.controlPlaneUrl,
    token: tokenSource(config.token, kube.core),
    onResponse: (method, status) => metrics.controlPlaneRequests.inc({ method, status: String(status) }),
  });

  const enqueue = (key: string) => {
    if (leading) queue.add(key);
  };
  const onEvent = (kind: WatchedKind, event: InformerEvent, object: KubernetesObject) => {
    if (!leading) return;
    const namespace = object.metadata?.namespace ?? "";
    const name = object.metadata?.name ?? "";
    if (isAtriumKind(kind)) {
      enqueue(objectKey(kind, namespace, name));
      if (event === "delete") {
        for (const ref of referencesOf(kind, (object as AtriumObject).spec)) {
          if (isAtriumKind(ref.kind)) enqueue(objectKey(ref.kind, namespace, ref.name));
        }
      }
    }
    for (const key of dependentKeys(informers, kind, namespace, name)) enqueue(key);
  };
  const informers = new InformerSet({
    kubeConfig,
    kinds: [...atriumKinds, "Secret", "ConfigMap"],
    namespaces: config.watchNamespaces,
    handler: onEvent,
    log,
    onRestart: (kind) => metrics.watchRestarts.inc({ kind }),
  });

  const ctx: ReconcileContext = {
    controlPlane,
    kube,
    cache: informers,
    applied: new Map(),
    secretRecords: new Map(),
    enqueueDependents: (kind: AtriumKind, namespace: string, name: string) => {
      for (const key of dependentKeys(informers, kind, namespace, name)) enqueue(key);
    },
    log,
  };

  const enqueueAll = () => {
    for (const kind of atriumKinds) {
      for (const object of informers.list<AtriumObject>(kind)) {
        enqueue(objectKey(kind, object.metadata.namespace, object.metadata.name));
      }
    }
  };
  const startLeading = () => {
    leading = true;
    metrics.leader.set(1);
    controlPlane.organization().then(
      (organization) => log.info({ organization: organization.name, url: config.controlPlaneUrl }, "reconciling into"),
      (error: unknown) => log.warn({ error: describeError(error) }, "control plane not reachable yet"),
    );
    // Every object, once the caches are complete: events seen while standing by were not queued.
    informers.waitSynced(stopped.signal).then((synced) => {
      if (synced && leading) enqueueAll();
    });
  };
  const stopLeading = () => {
    leading = false;
    metrics.leader.set(0);
    queue.clear();
    // Another replica may write while this one stands by: trust nothing remembered.
    ctx.applied.clear();
    ctx.secretRecords.clear();
  };

  // With tracing on, a span per reconcile: its control-plane calls carry its context (reconcile/span.ts).
  const processKey = (key: string) =>
    inReconcileSpan(key, async (span) => {
      if (!leading) return;
      const kind = key.slice(0, key.indexOf("/"));
      const stopTimer = metrics.reconcileDuration.startTimer({ kind });
      reconcileCount++;
      try {
        const report = await reconcile(ctx, key);
        metrics.reconciles.inc({ kind, result: report.result });
        if (report.code) metrics.reconcileErrors.inc({ kind, code: report.code });
        span.result(report.result);
        if (report.retry && leading) queue.addRateLimited(key);
        else queue.forget(key);
      } catch (error) {
        // Kubernetes writes (status, finalizer) and anything unexpected: retried, with no status to report it in.
        metrics.reconciles.inc({ kind, result: "error" });
        metrics.reconcileErrors.inc({ kind, code: "unexpected" });
        span.result("error");
        if (leading) {
          const retryInMs = queue.addRateLimited(key);
          log.warn({ key, error: describeError(error), retryInMs }, "reconcile failed");
        }
      } finally {
        stopTimer();
      }
    });
  const workers = Array.from({ length: config.concurrency }, async () => {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await processKey(key);
      } finally {
        queue.done(key);
      }
    }
  });

  const identity = config.identity;
  const elector = config.leaderElection.enabled
    ? new LeaderElector({
        ...config.leaderElection,
        kubeConfig,
        identity,
        log,
        onStartedLeading: startLeading,
        onStoppedLeading: stopLeading,
      })
    : undefined;

  const url = await app.listen({ host: config.host, port: config.port });
  await informers.start();
  if (elector) elector.start();
  else startLeading();

  return {
    url: url.replace("0.0.0.0", "127.0.0.1").replace("[::]", "127.0.0.1"),
    identity,
    metrics,
    isLeader: () => leading,
    reconcileCount: () => reconcileCount,
    async stop(stopOptions = {}) {
      if (stopped.signal.aborted) return;
      stopped.abort();
      // Finish the reconciles in flight before handing the Lease to another replica.
      leading = false;
      queue.shutDown();
      await Promise.all(workers);
      await elector?.stop(stopOptions);
      stopLeading();
      await informers.stop();
      await controlPlane.close();
      await app.close();
    },
  };
}

function defaultKubeConfig(): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  return kubeConfig;
}
