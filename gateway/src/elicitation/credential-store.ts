/**
 * The gateway's side of the elicited-credential store (issue 15; flow.ts reads it for calls, the
 * page writes it). Credentials are sealed here with the cluster key's elicited-credential
 * key, bound to the Exposition, the user and the backend's origin (a credential given for one
 * backend never opens for another, when the plan or the Exposition's plan changes its backend:
 * the user is asked again), and kept in the control plane as ciphertext under a
 * digest of the user (`/api/v1/expositions/:id/elicited-credentials/:principal`): the control
 * plane sees neither the credential nor who it belongs to, and a row it moved to another user or
 * Exposition does not open. Any replica of the cluster reads what another one stored.
 *
 * The elicitation page knows the user only by the digest its pending elicitation holds, so every
 * method takes either the identity or that digest (CredentialOwner); the seal is bound to the
 * digest, which names the user as uniquely as the identity it hashes.
 *
 * Read credentials are cached in memory (bounded, least recently used dropped first) for a short
 * time, so a revocation through another replica takes effect here within that time; this
 * replica's own writes and deletes update its cache at once. Misses are not cached.
 */
import { createHash } from "node:crypto";
import type { CompiledExposition } from "@atrium/contract";
import { ELICITED_CREDENTIAL_MAX_CIPHERTEXT, elicitedCredentialView } from "@atrium/contract/rest";
import { type RestClient, segment } from "@atrium/contract/rest-client";
import type { ClusterKeyring } from "./cluster-keys.ts";
import { principalKey, type RequestPrincipal } from "./request-state.ts";

/** Longest credential stored, in UTF-8 bytes: its sealed form stays under the store's bound. */
export const ELICITED_CREDENTIAL_MAX_BYTES = 4096;
const DEFAULT_CACHE_ENTRIES = 10_000;
const DEFAULT_CACHE_TTL_MS = 30_000;

export interface CredentialStoreOptions {
  /** Most credentials held in memory. */
  cacheEntries?: number;
  /** How long a read credential is used without asking the control plane again. */
  cacheTtlMs?: number;
  now?: () => number;
}

/** SHA-256 (base64url) of the user's identity: the control plane's key for them. */
export function principalDigest(principal: RequestPrincipal): string {
  return createHash("sha256").update(principalKey(principal)).digest("base64url");
}

/** Which credential: an Exposition's, for the backend it is sent to (an origin, `https://api.example.com`). */
export interface CredentialScope {
  expositionId: string;
  backend: string;
}

/** The scope of the credentials a served Exposition sends: its id and its plan's backend origin. */
export function credentialScope(exposition: Pick<CompiledExposition, "id" | "plan">): CredentialScope {
  return { expositionId: exposition.id, backend: new URL(exposition.plan.backendEndpoint).origin };
}

/** Whose credential: the user's identity (the call path), or its digest (the page, from the pending elicitation). */
export type CredentialOwner = RequestPrincipal | { digest: string };

function digestOf(owner: CredentialOwner): string {
  return "digest" in owner ? owner.digest : principalDigest(owner);
}

export class ElicitedCredentialStore {
  private readonly cache = new Map<string, { credential: string; readAt: number }>();
  /**
   * Counts this replica's writes, at their start and at their end: a read that overlapped one
   * (its answer may be what the write replaced or revoked) is returned but not cached.
   */
  private writes = 0;
  private readonly rest: RestClient;
  private readonly keyring: ClusterKeyring;
  private readonly cacheEntries: number;
  private readonly cacheTtlMs: number;
  private readonly now: () => number;

  constructor(rest: RestClient, keyring: ClusterKeyring, options: CredentialStoreOptions = {}) {
    this.rest = rest;
    this.keyring = keyring;
    this.cacheEntries = options.cacheEntries ?? DEFAULT_CACHE_ENTRIES;
    this.cacheTtlMs = options.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** The user's credential for the Exposition's backend, or undefined when none is stored or it does not open here. */
  async get(scope: CredentialScope, owner: CredentialOwner): Promise<string | undefined> {
    const digest = digestOf(owner);
    const key = cacheKey(scope, digest);
    const cached = this.cache.get(key);
    if (cached && this.now() - cached.readAt < this.cacheTtlMs) {
      this.cache.delete(key); // re-inserted: most recently used last
      this.cache.set(key, cached);
      return cached.credential;
    }
    this.cache.delete(key);
    const writesBefore = this.writes;
    const stored = await this.rest.send("GET", pathOf(scope, digest), {
      answer: elicitedCredentialView,
      tolerate: [404],
    });
    if (!stored) return undefined;
    const opened = this.keyring.open("elicited-credential", stored.ciphertext, context(scope, digest));
    // Another cluster's key, or a row not sealed for this user, Exposition and backend: as if none (the next call elicits anew).
    if (!opened.ok) return undefined;
    const credential = opened.plaintext.toString("utf8");
    if (this.writes === writesBefore) this.remember(key, credential);
    return credential;
  }

  /** Seals and stores the user's credential for the Exposition's backend, replacing any earlier one. */
  async put(scope: CredentialScope, owner: CredentialOwner, credential: string): Promise<void> {
    const digest = digestOf(owner);
    const bytes = Buffer.from(credential, "utf8");
    if (bytes.length === 0 || bytes.length > ELICITED_CREDENTIAL_MAX_BYTES)
      throw new RangeError(`an elicited credential must be 1 to ${ELICITED_CREDENTIAL_MAX_BYTES} bytes`);
    const ciphertext = this.keyring.seal("elicited-credential", bytes, context(scope, digest));
    if (ciphertext.length > ELICITED_CREDENTIAL_MAX_CIPHERTEXT) throw new RangeError("sealed credential too long");
    this.writes++;
    this.cache.delete(cacheKey(scope, digest));
    try {
      await this.rest.put(pathOf(scope, digest), { ciphertext }, elicitedCredentialView);
    } finally {
      this.writes++;
    }
    this.remember(cacheKey(scope, digest), credential);
  }

  /** Deletes it (the user revoked it, or the backend refused it); false when none was stored. */
  async delete(scope: CredentialScope, owner: CredentialOwner): Promise<boolean> {
    const digest = digestOf(owner);
    this.writes++;
    this.cache.delete(cacheKey(scope, digest));
    try {
      return await this.rest.delete(pathOf(scope, digest), { tolerate: [404] });
    } finally {
      this.writes++;
    }
  }

  get cachedEntries(): number {
    return this.cache.size;
  }

  private remember(key: string, credential: string): void {
    this.cache.delete(key);
    this.cache.set(key, { credential, readAt: this.now() });
    while (this.cache.size > this.cacheEntries) this.cache.delete(this.cache.keys().next().value as string);
  }
}

/** What the seal is bound to: a row moved to another Exposition or user, or read for another backend, fails its check. */
function context({ expositionId, backend }: CredentialScope, digest: string): string {
  return JSON.stringify([expositionId, digest, backend]);
}

function cacheKey({ expositionId, backend }: CredentialScope, digest: string): string {
  return `${expositionId} ${digest} ${backend}`;
}

/** One row per user and Exposition: storing for a new backend replaces the credential for the old one. */
function pathOf({ expositionId }: CredentialScope, digest: string): string {
  return `/expositions/${segment(expositionId)}/elicited-credentials/${segment(digest)}`;
}
