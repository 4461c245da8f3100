/**
 * Test support: a rendered container's environment as the kubelet would hand it to the process:
 * `secretKeyRef`s (and `configMapKeyRef`s) read from the rendered Secrets or values the test
 * supplies, `fieldRef`s filled
 * in, `$(NAME)` expanded from earlier entries, and Secret volumes written to a temp dir whose paths
 * replace the mount paths. The components' own `configFromEnv` then reads exactly what a pod gets.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Manifest } from "./testing.ts";

/** Secret name → entry → plain value. */
export type SecretValues = Record<string, Record<string, string>>;

/** The plain values of the rendered Secrets, plus the ones a test supplies (existing Secrets). */
export function secretValues(objects: Manifest[], supplied: SecretValues = {}): SecretValues {
  const values: SecretValues = { ...supplied };
  for (const secret of objects.filter((o) => o.kind === "Secret")) {
    values[secret.metadata.name] = Object.fromEntries(
      Object.entries((secret.data ?? {}) as Record<string, string>).map(([key, value]) => [
        key,
        Buffer.from(value, "base64").toString("utf8"),
      ]),
    );
  }
  return values;
}

function secretEntry(secrets: SecretValues, name: string, key: string): string {
  const value = secrets[name]?.[key];
  if (value === undefined) throw new Error(`the pod needs Secret ${name} key ${key}, which the test does not have`);
  return value;
}

/** Writes the container's Secret volumes under `dir`; returns mount path → local path. */
function mountSecrets(pod: Manifest, container: Manifest, secrets: SecretValues, dir: string): Map<string, string> {
  const mounts = new Map<string, string>();
  for (const mount of container.volumeMounts ?? []) {
    const volume = (pod.volumes as Manifest[]).find((v) => v.name === mount.name);
    if (!volume?.secret) continue;
    const local = join(dir, mount.name);
    mkdirSync(local, { recursive: true });
    const name = volume.secret.secretName as string;
    const items: { key: string; path: string }[] =
      volume.secret.items ?? Object.keys(secrets[name] ?? {}).map((key) => ({ key, path: key }));
    for (const item of items) writeFileSync(join(local, item.path), secretEntry(secrets, name, item.key));
    mounts.set(mount.mountPath, local);
  }
  return mounts;
}

export function kubeletEnv(
  deployment: Manifest,
  secrets: SecretValues,
  dir: string,
  pod: { name: string; namespace: string } = { name: "pod-0", namespace: "atrium-system" },
): NodeJS.ProcessEnv {
  const spec = deployment.spec.template.spec;
  const container = spec.containers[0];
  const mounts = mountSecrets(spec, container, secrets, dir);
  const env: Record<string, string> = {};
  for (const entry of container.env as Manifest[]) {
    let value: string;
    // ConfigMaps are looked up among the supplied values too: tests only need their entries.
    const keyRef = entry.valueFrom?.secretKeyRef ?? entry.valueFrom?.configMapKeyRef;
    if (keyRef) {
      value = secretEntry(secrets, keyRef.name, keyRef.key);
    } else if (entry.valueFrom?.fieldRef) {
      const path = entry.valueFrom.fieldRef.fieldPath as string;
      value = path === "metadata.name" ? pod.name : path === "metadata.namespace" ? pod.namespace : "";
    } else {
      // $(NAME) refers to an entry above; an unknown name stays as written (Kubernetes' rule).
      value = String(entry.value ?? "").replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string) =>
        name in env ? (env[name] as string) : whole,
      );
    }
    for (const [mountPath, local] of mounts) {
      if (value === mountPath || value.startsWith(`${mountPath}/`)) value = local + value.slice(mountPath.length);
    }
    env[entry.name] = value;
  }
  return env;
}
