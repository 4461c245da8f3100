/**
 * The gateway's cache file: the last applied configuration, so a restart while the control plane
 * is down still serves. It holds backend secrets, so it belongs to one identity: it lives in a
 * folder per organization (`<cacheDir>/<organization id>/configuration.json`) and records a
 * fingerprint of the credential that fetched it. A file written for another organization or
 * credential is never served: it is set aside (renamed) with a warning, and the gateway takes a
 * fresh snapshot. The file is read with the contract's snapshot schema (plus what only the cache
 * keeps); one that does not parse (truncated, edited, from an incompatible version) is set aside
 * the same way, and the gateway starts empty and syncs.
 *
 * Two gateway processes never share a cache folder (they would share the instance id, so the
 * control plane could not tell them apart): a lock file names the process holding it, and a
 * second live process is refused at start with what to change.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writevSync,
} from "node:fs";
import { join } from "node:path";
import { instanceId, snapshotEnvelope } from "@atrium/contract";
import { isAlive } from "@atrium/contract/process-lifecycle";
import { z } from "zod";
import { refusal } from "./registry.ts";

const FILE_NAME = "configuration.json";
const EXPOSITIONS_OPEN = Buffer.from('{"expositions":[');
const COMMA = Buffer.from(",");
const LOCK_NAME = "gateway.lock";

/**
 * A snapshot (its Expositions and ended sessions are validated again one by one when served,
 * like anything that arrives on the stream) with what the cache adds.
 */
const cacheFile = snapshotEnvelope.extend({
  instanceId,
  /** Absent in caches written before they were bound to an identity: such a file is set aside. */
  organization: z.object({ id: z.string(), name: z.string() }).optional(),
  /** {@link credentialFingerprint} of the token that fetched this configuration. */
  credential: z.string().optional(),
  revision: z.number().optional(),
  /** When the control plane last confirmed this configuration was current (epoch ms). */
  currentAt: z.number().optional(),
  refusals: z.array(refusal).optional(),
});
export type CacheFile = z.output<typeof cacheFile>;

export interface CacheLog {
  warn(object: object, message: string): void;
}

/** A SHA-256 prefix: tells credentials apart without storing anything that could be used as one. */
export function credentialFingerprint(token: string): string {
  return createHash("sha256").update(`atrium-gateway-cache:${token}`).digest("hex").slice(0, 32);
}

export class ConfigurationCache {
  private readonly dir: string;
  private readonly credential: string;
  private readonly log: CacheLog;
  /** Where the file is read and written; known once loaded, or once the organization is. */
  private file: string | undefined;
  /** The instance id of a file set aside: a restart with a rotated token keeps its registration. */
  private setAsideInstanceId: string | undefined;
  /** Each Exposition's JSON as last written, for as long as its object lives. */
  private readonly written = new WeakMap<object, Buffer>();

  constructor(dir: string, token: string, log: CacheLog) {
    this.dir = dir;
    this.credential = credentialFingerprint(token);
    this.log = log;
  }

  /** Takes the folder for this process; throws when another live gateway process holds it. */
  lock(): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, LOCK_NAME);
    const holder = Number.parseInt(readFileSync(file, { encoding: "utf8", flag: "a+" }), 10);
    if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `the cache folder ${this.dir} is in use by gateway process ${holder}: give each gateway its own ` +
          "ATRIUM_GATEWAY_ID (or ATRIUM_GATEWAY_CACHE_DIR)",
      );
    }
    writeFileSync(file, String(process.pid), { mode: 0o600 });
  }

  /** Releases the folder, if this process holds it. */
  unlock(): void {
    const file = join(this.dir, LOCK_NAME);
    try {
      if (Number.parseInt(readFileSync(file, "utf8"), 10) === process.pid) rmSync(file);
    } catch {
      // already gone
    }
  }

  /** The cache written with this credential, if any; older unbound caches are set aside. */
  load(): CacheFile | undefined {
    const unbound = join(this.dir, FILE_NAME);
    if (existsSync(unbound)) {
      this.setAside(unbound, "it was written before caches were bound to an organization");
    }
    let folders: string[] = [];
    try {
      folders = readdirSync(this.dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
    } catch {
      return undefined; // no cache yet
    }
    for (const folder of folders) {
      const file = join(this.dir, folder, FILE_NAME);
      const read = readCache(file);
      if (read?.problem) {
        this.setAside(file, `it is not a cache file this gateway can read (${read.problem})`);
        continue;
      }
      const cache = read?.cache;
      if (
        cache?.credential === this.credential &&
        cache.organization &&
        safeFolderName(cache.organization.id) === folder
      ) {
        this.file = file;
        return cache;
      }
    }
    return undefined;
  }

  /** An instance id to keep when no cache of this identity exists. */
  instanceIdHint(): string | undefined {
    return this.setAsideInstanceId;
  }

  /**
   * The control plane told which organization the token belongs to. Returns false when the
   * loaded cache is not that organization's: the caller drops what it served from it.
   */
  bindOrganization(organization: { id: string }): boolean {
    const file = join(this.dir, safeFolderName(organization.id), FILE_NAME);
    if (this.file === file) return true;
    const loaded = this.file;
    if (loaded) this.setAside(loaded, "the control plane says the token belongs to another organization");
    const existing = readCache(file)?.cache;
    if (existing && existing.credential !== this.credential) {
      this.setAside(file, "it was written with another credential");
    }
    this.file = file;
    return loaded === undefined;
  }

  /**
   * Atomically, readable by the gateway's user only: it holds backend secrets. Each Exposition is
   * serialized once, while the registry holds its object: a change costs what it brought, not the
   * whole configuration again (10,000 Expositions are ≈ 11 MB of JSON, ≈ 0.1 s to serialize).
   */
  write(cache: Omit<z.input<typeof cacheFile>, "credential">): void {
    if (!this.file) return; // neither loaded nor bound yet: nothing worth keeping
    const folder = join(this.file, "..");
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    const { expositions, ...rest } = cache;
    const parts: Buffer[] = [EXPOSITIONS_OPEN];
    for (const [i, exposition] of expositions.entries()) {
      if (i > 0) parts.push(COMMA);
      parts.push(this.serialized(exposition));
    }
    // `rest` always has the instance id: its JSON is `{…}`, whose fields follow the expositions.
    parts.push(Buffer.from(`],${JSON.stringify({ ...rest, credential: this.credential }).slice(1)}`));
    // Written as they are, without copying them into one buffer: 11 MB allocated per change
    // brought on full garbage collections of the whole heap.
    const fd = openSync(temporary, "w", 0o600);
    try {
      writevSync(fd, parts);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, this.file);
  }

  /** An Exposition's JSON, from an earlier write when it is the same object (the registry never mutates one). */
  private serialized(exposition: unknown): Buffer {
    if (typeof exposition !== "object" || exposition === null) return Buffer.from(JSON.stringify(exposition));
    let json = this.written.get(exposition);
    if (json === undefined) {
      json = Buffer.from(JSON.stringify(exposition));
      this.written.set(exposition, json);
    }
    return json;
  }

  private setAside(file: string, why: string): void {
    this.setAsideInstanceId ??= readCache(file)?.cache?.instanceId;
    const aside = `${file}.set-aside-${Date.now()}`;
    try {
      renameSync(file, aside);
      this.log.warn({ file, setAsideAs: aside }, `cache file not used: ${why}; taking a fresh snapshot`);
    } catch (error) {
      this.log.warn({ file, err: (error as Error).message }, `cache file not used (${why}) and could not be renamed`);
    }
  }
}

/** The file parsed, or why it does not parse; undefined when there is no file. */
function readCache(file: string): { cache?: CacheFile; problem?: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${(error as Error).message}` };
  }
  const parsed = cacheFile.safeParse(json);
  if (parsed.success) return { cache: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `${issue?.path.join(".") || "the file"}: ${issue?.message}` };
}

/** Organization ids are UUIDs; anything else is reduced to safe characters, never a path. */
function safeFolderName(id: string): string {
  return id.replace(/[^A-Za-z0-9-]/g, "_") || "_";
}
