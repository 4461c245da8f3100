/**
 * The writes the operator makes to the Kubernetes API: status through the /status subresource,
 * the finalizer through JSON Patches guarded by `test` operations (so a concurrent writer's
 * change is never clobbered), and the API-key Secrets of ConfigurationPlans.
 */
import { API_GROUP, API_VERSION, GROUP_VERSION, kindNamed } from "@atrium/crds";
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  type V1OwnerReference,
  type V1Secret,
} from "@kubernetes/client-node";
import { describeError, errors, kubeMessage } from "../errors.ts";
import { type AtriumObject, FINALIZER } from "./objects.ts";

type JsonPatch = { op: "add" | "remove" | "replace" | "test"; path: string; value?: unknown }[];

/** The API server's message for a refused request. */
function reasonOf(error: unknown): string {
  return error instanceof ApiException ? (kubeMessage(error.body) ?? describeError(error)) : describeError(error);
}

export function statusCodeOf(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

export class KubeApi {
  readonly #custom: CustomObjectsApi;
  readonly core: CoreV1Api;

  constructor(kubeConfig: KubeConfig) {
    this.#custom = kubeConfig.makeApiClient(CustomObjectsApi);
    this.core = kubeConfig.makeApiClient(CoreV1Api);
  }

  /** Replaces `status` through the status subresource (never the main resource). */
  async writeStatus(object: AtriumObject, status: Record<string, unknown>): Promise<void> {
    await this.#patch(object, [{ op: "add", path: "/status", value: status }], "update the status of", true);
  }

  /** Adds the finalizer unless another writer changed the object (or its finalizers) meanwhile. */
  async addFinalizer(object: AtriumObject): Promise<AtriumObject> {
    const current = object.metadata.finalizers;
    const patch: JsonPatch = current?.length
      ? [
          { op: "test", path: "/metadata/finalizers", value: current },
          { op: "add", path: "/metadata/finalizers/-", value: FINALIZER },
        ]
      : [
          { op: "test", path: "/metadata/resourceVersion", value: object.metadata.resourceVersion },
          { op: "add", path: "/metadata/finalizers", value: [FINALIZER] },
        ];
    return this.#patch(object, patch, "add the finalizer to");
  }

  /** Removes the finalizer, testing it is still at the index it was read at. */
  async removeFinalizer(object: AtriumObject): Promise<void> {
    const index = object.metadata.finalizers?.indexOf(FINALIZER) ?? -1;
    if (index < 0) return;
    try {
      await this.#patch(
        object,
        [
          { op: "test", path: `/metadata/finalizers/${index}`, value: FINALIZER },
          { op: "remove", path: `/metadata/finalizers/${index}` },
        ],
        "remove the finalizer from",
      );
    } catch (error) {
      // Already gone: someone removed the finalizer and the object was deleted.
      if ((error as { status?: number }).status === 404) return;
      throw error;
    }
  }

  async readSecret(namespace: string, name: string): Promise<V1Secret | undefined> {
    try {
      return await this.core.readNamespacedSecret({ namespace, name });
    } catch (error) {
      if (statusCodeOf(error) === 404) return undefined;
      throw errors.kubeRequestFailed(`read Secret ${namespace}/${name}`, statusCodeOf(error) ?? 0, reasonOf(error));
    }
  }

  /**
   * Writes `value` under `key` in a Secret owned by `owner`: creates it, or updates that key of
   * an existing one (keeping its other keys) and adds the owner reference.
   */
  async writeOwnedSecret(owner: AtriumObject, name: string, key: string, value: string): Promise<void> {
    const { namespace } = owner.metadata;
    const ownerReference: V1OwnerReference = {
      apiVersion: GROUP_VERSION,
      kind: owner.kind,
      name: owner.metadata.name,
      uid: owner.metadata.uid,
    };
    const encoded = Buffer.from(value, "utf8").toString("base64");
    const what = `write Secret ${namespace}/${name}`;
    try {
      const existing = await this.readSecret(namespace, name);
      if (!existing) {
        await this.core.createNamespacedSecret({
          namespace,
          body: {
            apiVersion: "v1",
            kind: "Secret",
            metadata: {
              name,
              namespace,
              labels: { "app.kubernetes.io/managed-by": "atrium-operator" },
              ownerReferences: [{ ...ownerReference, controller: true }],
            },
            type: "Opaque",
            data: { [key]: encoded },
          },
        });
        return;
      }
      const references = existing.metadata?.ownerReferences ?? [];
      const owned = references.some((reference) => reference.uid === owner.metadata.uid);
      // Only one owner may be the controller; another one's Secret just gains a plain reference.
      const controller = !references.some((reference) => reference.controller);
      await this.core.replaceNamespacedSecret({
        namespace,
        name,
        body: {
          ...existing,
          metadata: {
            ...existing.metadata,
            ownerReferences: owned ? references : [...references, { ...ownerReference, controller }],
          },
          data: { ...existing.data, [key]: encoded },
        },
      });
    } catch (error) {
      if (error instanceof ApiException) throw errors.kubeRequestFailed(what, error.code, reasonOf(error));
      throw error;
    }
  }

  /** Deletes a Secret if it is (still) the one owned by `owner`. */
  async deleteOwnedSecret(owner: AtriumObject, name: string): Promise<void> {
    const { namespace } = owner.metadata;
    const secret = await this.readSecret(namespace, name);
    const uid = secret?.metadata?.uid;
    if (!uid || !secret.metadata?.ownerReferences?.some((reference) => reference.uid === owner.metadata.uid)) return;
    try {
      await this.core.deleteNamespacedSecret({ namespace, name, body: { preconditions: { uid } } });
    } catch (error) {
      if (statusCodeOf(error) === 404 || statusCodeOf(error) === 409) return;
      throw errors.kubeRequestFailed(`delete Secret ${namespace}/${name}`, statusCodeOf(error) ?? 0, reasonOf(error));
    }
  }

  async #patch(object: AtriumObject, body: JsonPatch, what: string, status = false): Promise<AtriumObject> {
    const definition = kindNamed(object.kind);
    if (!definition) throw new Error(`unknown kind ${object.kind}`);
    const target = {
      group: API_GROUP,
      version: API_VERSION,
      namespace: object.metadata.namespace,
      plural: definition.plural,
      name: object.metadata.name,
      body,
    };
    try {
      return (await (status
        ? this.#custom.patchNamespacedCustomObjectStatus(target)
        : this.#custom.patchNamespacedCustomObject(target))) as AtriumObject;
    } catch (error) {
      throw errors.kubeRequestFailed(
        `${what} ${object.kind} ${object.metadata.namespace}/${object.metadata.name}`,
        statusCodeOf(error) ?? 0,
        reasonOf(error),
      );
    }
  }
}
