/**
 * Informers (client-node ListWatch: list, then watch from the list's resourceVersion) for the
 * eight kinds and for the Secrets and ConfigMaps they reference, one per watched namespace (or
 * one cluster-wide). ListWatch relists on 410 Gone but stops for good on any other error (API
 * server restart, network, RBAC): each informer here restarts itself with backoff.
 */
import { backoffDelay } from "@atrium/contract/backoff";
import { API_GROUP, API_VERSION, kinds } from "@atrium/crds";
import {
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type KubernetesListObject,
  type KubernetesObject,
  ListWatch,
  Watch,
} from "@kubernetes/client-node";
import { describeError } from "../errors.ts";
import type { Log } from "../log.ts";
import type { WatchedKind } from "./objects.ts";

export type InformerEvent = "add" | "update" | "delete";
export type InformerHandler = (kind: WatchedKind, event: InformerEvent, object: KubernetesObject) => void;

const RESTART_BACKOFF = { baseMs: 1_000, maxMs: 30_000 };
/** An error this long after the previous one starts the backoff over. */
const BACKOFF_RESET_MS = 60_000;
/**
 * Secrets the operator never needs but that can be large and numerous (Helm keeps every release
 * in one): left out of the cache.
 */
const SECRET_FIELD_SELECTOR = "type!=helm.sh/release.v1,type!=kubernetes.io/service-account-token";

type ListFn = () => Promise<KubernetesListObject<KubernetesObject>>;

interface ResourceSource {
  path: string;
  list: ListFn;
  fieldSelector?: string;
}

function sourceFor(kubeConfig: KubeConfig, kind: WatchedKind, namespace: string | undefined): ResourceSource {
  const scope = namespace === undefined ? "" : `/namespaces/${namespace}`;
  if (kind === "Secret" || kind === "ConfigMap") {
    const core = kubeConfig.makeApiClient(CoreV1Api);
    const plural = kind === "Secret" ? "secrets" : "configmaps";
    const fieldSelector = kind === "Secret" ? SECRET_FIELD_SELECTOR : undefined;
    const list: ListFn =
      kind === "Secret"
        ? () =>
            namespace === undefined
              ? core.listSecretForAllNamespaces({ fieldSelector })
              : core.listNamespacedSecret({ namespace, fieldSelector })
        : () =>
            namespace === undefined
              ? core.listConfigMapForAllNamespaces()
              : core.listNamespacedConfigMap({ namespace });
    return { path: `/api/v1${scope}/${plural}`, list, ...(fieldSelector ? { fieldSelector } : {}) };
  }
  const definition = kinds.find((k) => k.kind === kind);
  if (!definition) throw new Error(`unknown kind ${kind}`);
  const custom = kubeConfig.makeApiClient(CustomObjectsApi);
  const target = { group: API_GROUP, version: API_VERSION, plural: definition.plural };
  return {
    path: `/apis/${API_GROUP}/${API_VERSION}${scope}/${definition.plural}`,
    list: () =>
      namespace === undefined
        ? custom.listClusterCustomObject(target)
        : custom.listNamespacedCustomObject({ ...target, namespace }),
  };
}

/** One ListWatch that restarts after errors and knows whether its first list succeeded. */
class RestartingInformer {
  readonly kind: WatchedKind;
  readonly namespace: string | undefined;
  readonly #listWatch: ListWatch<KubernetesObject>;
  readonly #log: Log;
  readonly #onRestart: () => void;
  #synced = false;
  #stopped = false;
  /** Errors since the backoff last started over. */
  #failures = 0;
  #lastErrorAt = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    kubeConfig: KubeConfig,
    kind: WatchedKind,
    namespace: string | undefined,
    handler: InformerHandler,
    log: Log,
    onRestart: () => void,
  ) {
    this.kind = kind;
    this.namespace = namespace;
    this.#log = log;
    this.#onRestart = onRestart;
    const source = sourceFor(kubeConfig, kind, namespace);
    const list: ListFn = async () => {
      const result = await source.list();
      this.#synced = true;
      return result;
    };
    this.#listWatch = new ListWatch(source.path, new Watch(kubeConfig), list, false, undefined, source.fieldSelector);
    for (const event of ["add", "update", "delete"] as const) {
      this.#listWatch.on(event, (object) => handler(kind, event, object));
    }
    this.#listWatch.on("error", (error) => this.#restartLater(error));
  }

  get synced(): boolean {
    return this.#synced;
  }

  async start(): Promise<void> {
    this.#stopped = false;
    await this.#listWatch.start();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#listWatch.stop();
  }

  get(namespace: string, name: string): KubernetesObject | undefined {
    return this.#listWatch.get(name, namespace);
  }

  list(namespace?: string): readonly KubernetesObject[] {
    return this.#listWatch.list(namespace);
  }

  #restartLater(error: unknown): void {
    if (this.#stopped) return;
    const now = Date.now();
    if (now - this.#lastErrorAt > BACKOFF_RESET_MS) this.#failures = 0;
    const delayMs = Math.round(backoffDelay(this.#failures, RESTART_BACKOFF));
    this.#failures += 1;
    this.#lastErrorAt = now;
    this.#log.warn(
      { kind: this.kind, namespace: this.namespace ?? "*", error: describeError(error), retryInMs: delayMs },
      "watch failed; restarting it",
    );
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      if (this.#stopped) return;
      this.#onRestart();
      this.#listWatch.start().catch((startError: unknown) => this.#restartLater(startError));
    }, delayMs);
    this.#timer.unref();
  }
}

/** The informers of every watched kind in every watched namespace, with one lookup for all. */
export class InformerSet {
  readonly #informers = new Map<string, RestartingInformer>();
  readonly #clusterWide: boolean;

  constructor(options: {
    kubeConfig: KubeConfig;
    kinds: readonly WatchedKind[];
    /** Empty: cluster-wide. */
    namespaces: readonly string[];
    handler: InformerHandler;
    log: Log;
    onRestart?: (kind: WatchedKind) => void;
  }) {
    this.#clusterWide = options.namespaces.length === 0;
    const scopes = this.#clusterWide ? [undefined] : options.namespaces;
    for (const kind of options.kinds) {
      for (const namespace of scopes) {
        const informer = new RestartingInformer(options.kubeConfig, kind, namespace, options.handler, options.log, () =>
          options.onRestart?.(kind),
        );
        this.#informers.set(this.#slot(kind, namespace), informer);
      }
    }
  }

  /** Starts every informer; resolves once each has listed or failed (failures restart on their own). */
  async start(): Promise<void> {
    await Promise.all([...this.#informers.values()].map((informer) => informer.start()));
  }

  /** Every informer has completed its first list. */
  get synced(): boolean {
    return [...this.#informers.values()].every((informer) => informer.synced);
  }

  /** Resolves true once every informer has listed, false if `signal` aborts first. */
  async waitSynced(signal: AbortSignal): Promise<boolean> {
    while (!this.synced) {
      if (signal.aborted) return false;
      await new Promise((resolve) => setTimeout(resolve, 100).unref());
    }
    return true;
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#informers.values()].map((informer) => informer.stop()));
  }

  /** Whether objects of `namespace` are watched at all. */
  watches(namespace: string): boolean {
    return this.#clusterWide || [...this.#informers.values()].some((informer) => informer.namespace === namespace);
  }

  get<T>(kind: WatchedKind, namespace: string, name: string): T | undefined {
    return this.#informer(kind, namespace)?.get(namespace, name) as T | undefined;
  }

  /** Objects of `kind` in `namespace`, or in every watched namespace. */
  list<T>(kind: WatchedKind, namespace?: string): T[] {
    if (namespace !== undefined) return [...(this.#informer(kind, namespace)?.list(namespace) ?? [])] as T[];
    return [...this.#informers.values()]
      .filter((informer) => informer.kind === kind)
      .flatMap((informer) => [...informer.list()]) as T[];
  }

  #informer(kind: WatchedKind, namespace: string): RestartingInformer | undefined {
    return this.#informers.get(this.#slot(kind, this.#clusterWide ? undefined : namespace));
  }

  #slot(kind: WatchedKind, namespace: string | undefined): string {
    return `${kind}/${namespace ?? "*"}`;
  }
}
