/**
 * The control-plane API token: read from a Kubernetes Secret or a file, kept in memory, and
 * read again after the control plane refuses it (a rotated Secret takes effect without a restart).
 */
import { readFile } from "node:fs/promises";
import { ApiException, type CoreV1Api } from "@kubernetes/client-node";
import type { TokenSetting } from "./config.ts";
import { describeError, errors } from "./errors.ts";

export interface TokenSource {
  /** Where the token comes from, for messages (never the token itself). */
  readonly description: string;
  get(): Promise<string>;
  /** Forgets the cached token: the next `get` reads it again. */
  invalidate(): void;
}

export function tokenSource(setting: TokenSetting, core: CoreV1Api): TokenSource {
  const description =
    "secret" in setting
      ? `Secret ${setting.secret.namespace}/${setting.secret.name} key ${setting.secret.key}`
      : "file" in setting
        ? `file ${setting.file}`
        : "inline value";
  let cached: Promise<string> | undefined;

  const read = async (): Promise<string> => {
    if ("value" in setting) return setting.value;
    if ("file" in setting) {
      const text = await readFile(setting.file, "utf8").catch((error: unknown) => {
        throw errors.tokenUnavailable(description, describeError(error));
      });
      return nonEmpty(text.trim());
    }
    const { namespace, name, key } = setting.secret;
    const secret = await core.readNamespacedSecret({ namespace, name }).catch((error: unknown) => {
      const reason =
        error instanceof ApiException && error.code === 404 ? "the Secret does not exist" : describeError(error);
      throw errors.tokenUnavailable(description, reason);
    });
    const encoded = secret.data?.[key];
    if (encoded === undefined) {
      throw errors.tokenUnavailable(description, `the Secret has no key '${key}' (set ATRIUM_CONTROL_PLANE_TOKEN_KEY)`);
    }
    return nonEmpty(Buffer.from(encoded, "base64").toString("utf8").trim());
  };
  const nonEmpty = (token: string) => {
    if (!token) throw errors.tokenUnavailable(description, "it is empty");
    return token;
  };

  return {
    description,
    get() {
      cached ??= read();
      // A failed read is not cached: the next reconcile tries again.
      cached.catch(() => {
        cached = undefined;
      });
      return cached;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
