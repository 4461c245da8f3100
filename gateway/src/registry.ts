/**
 * The Expositions a gateway serves, compiled once when they arrive (tools, validators,
 * templates) and looked up in O(1) by id or by organization/name. Updates build new maps and
 * swap them in one assignment: a request holds the Exposition it looked up, so it sees the old
 * or the new one, never half of each.
 */
import { createHash } from "node:crypto";
import type { CompiledExposition } from "@atrium/control-plane/stream";
import { type CompiledTemplate, compileTemplates } from "./mcp/resources.ts";
import { SerializedResult } from "./mcp/serialized.ts";
import { compileToolset } from "./tools/compile.ts";
import { type BackendBase, parseBackendEndpoint } from "./tools/request.ts";
import type { Toolset } from "./tools/runtime.ts";

export interface ServedExposition {
  exposition: CompiledExposition;
  toolset: Toolset;
  templates: CompiledTemplate[];
  /** The backend endpoint, parsed once. */
  backend: BackendBase;
  /** Results that never change for this Exposition, serialized once (see SerializedResult). */
  serialized: Map<string, SerializedResult>;
  /** SHA-256 of the client API key, as bytes; undefined when the endpoint needs none. */
  apiKeyHash: Buffer | undefined;
  /**
   * Client keys already found to match `apiKeyHash`: only the valid key ever gets here, so it
   * holds one entry. A Set lookup hashes the presented key, so its timing tells nothing of how
   * much of the valid key a wrong one shares.
   */
  verifiedKeys: Set<string>;
}

export function serve(exposition: CompiledExposition): ServedExposition {
  return {
    exposition,
    toolset: compileToolset(exposition),
    templates: compileTemplates(exposition.resourceTemplates),
    backend: parseBackendEndpoint(exposition.plan.backendEndpoint),
    apiKeyHash: exposition.plan.apiKeyHash ? Buffer.from(exposition.plan.apiKeyHash, "hex") : undefined,
    serialized: new Map(),
    verifiedKeys: new Set(),
  };
}

export function sha256(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

interface Maps {
  byId: Map<string, ServedExposition>;
  byPath: Map<string, ServedExposition>;
}

const pathKey = (organization: string, name: string) => `${organization}/${name}`;

export class ExpositionRegistry {
  private maps: Maps = { byId: new Map(), byPath: new Map() };

  get size(): number {
    return this.maps.byId.size;
  }

  byId(id: string): ServedExposition | undefined {
    return this.maps.byId.get(id);
  }

  byPath(organization: string, name: string): ServedExposition | undefined {
    return this.maps.byPath.get(pathKey(organization, name));
  }

  all(): CompiledExposition[] {
    return [...this.maps.byId.values()].map((served) => served.exposition);
  }

  /** A snapshot: everything is replaced. */
  replaceAll(expositions: CompiledExposition[]): void {
    this.maps = index(expositions.map(serve));
  }

  /** A delta: upserts replace or add, deletes drop (unknown ids are ignored). */
  apply(upserts: CompiledExposition[], deletes: string[]): void {
    const next = new Map(this.maps.byId);
    for (const id of deletes) next.delete(id);
    for (const exposition of upserts) next.set(exposition.id, serve(exposition));
    this.maps = index([...next.values()]);
  }
}

function index(served: ServedExposition[]): Maps {
  const byId = new Map<string, ServedExposition>();
  const byPath = new Map<string, ServedExposition>();
  for (const entry of served) {
    byId.set(entry.exposition.id, entry);
    byPath.set(pathKey(entry.exposition.organization.name, entry.exposition.name), entry);
  }
  return { byId, byPath };
}

/** `build()`'s result for this Exposition, serialized on first use and reused after. */
export function serializedOnce(served: ServedExposition, key: string, build: () => unknown): SerializedResult {
  let result = served.serialized.get(key);
  if (!result) {
    result = new SerializedResult(JSON.stringify(build()));
    served.serialized.set(key, result);
  }
  return result;
}
