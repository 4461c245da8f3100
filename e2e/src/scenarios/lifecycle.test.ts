/**
 * The life of an Atrium installation on a real cluster, one test per scenario of issue 12, in order
 * on one cluster and one installation (a cold start costs minutes, so they share it):
 * 1. install: the CRDs applied explicitly, the three charts with a real PostgreSQL, all Ready;
 * 2. the samples applied with kubectl: every resource READY at its generation, and the official MCP
 *    client calls a tool through the gateway Service (the backend checks the backend secret);
 * 3. upgrade to a new chart and app version as the spec orders it: tested backup, CRDs first,
 *    control plane, controllers, gateways, tags pinned, tracked values, no --reuse-values; the
 *    cluster keystore, API keys and a 2025-era session opened before survive;
 * 4. encryption-key rotation: distribute the key set, switch activeKeyId, re-encrypt (idempotent);
 * 5. helm rollback: manifests only (no migration reversed, no CRD downgraded);
 * 6. uninstall with keepOnDelete: the records stay in the control plane, the kept Secrets stay.
 * The environment is the local one-node cluster (or kind, see environment.ts); one that does not
 * start fails the suite.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePorts } from "@atrium/kube-testenv";
import { recordSecret } from "@atrium/reliability/secrets";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type E2eEnvironment, startEnvironment } from "../environment.ts";
import {
  COMPONENTS,
  type Command,
  ControlPlaneApi,
  controllersValues,
  controlPlaneValues,
  type DatabaseSettings,
  deployments,
  eventually,
  GATEWAY_LABELS,
  gatewayValues,
  helmCommand,
  imageRef,
  keepPodLogs,
  NAMESPACE,
  RELEASES,
  REPO_ROOT,
  secretData,
  secretEntry,
  writeValues,
} from "../fixtures/atrium.ts";
import { PETSTORE_SERVICE, petstoreBackendUrl, petstoreManifests } from "../fixtures/petstore.ts";
import { type Postgres, startPostgres } from "../fixtures/postgres.ts";

const run = promisify(execFile);
const PODMAN = join(REPO_ROOT, "hack/images/podman");
const SAMPLES = join(REPO_ROOT, "crds/samples/valid");
const SAMPLES_NAMESPACE = "e2e-samples";
/** Where the installation's pods and the samples' pet store run: their logs are kept for the secrets scan. */
const podNamespaces = [NAMESPACE, SAMPLES_NAMESPACE];
const OLD = { tag: "e2e-1", chart: "0.1.0" };
const NEW = { tag: "e2e-2", chart: "0.1.1-e2e.2" };
const ROLLOUT = ["--wait", "--timeout", "8m"];
/** The eight kinds of crds/samples/valid and the status field each reports its state in. */
const SAMPLE_KINDS = [
  { resource: "services.atrium.dev", field: "status" },
  { resource: "secretsources.atrium.dev", field: "status" },
  { resource: "configurationplans.atrium.dev", field: "status" },
  { resource: "gatewaygroups.atrium.dev", field: "status" },
  { resource: "expositions.atrium.dev", field: "status" },
  { resource: "customtools.atrium.dev", field: "state" },
  { resource: "resources.atrium.dev", field: "state" },
  { resource: "prompts.atrium.dev", field: "state" },
] as const;

const log = (line: string) => console.log(`e2e: ${line}`);

describe("an Atrium installation on a real cluster", () => {
  let env: E2eEnvironment;
  let dir: string;
  let kubectl: Command;
  let helm: Command;
  let postgres: Postgres;
  let api: ControlPlaneApi;
  let database: DatabaseSettings;
  const values: Record<string, string> = {};
  /** The petstore Exposition on the gateway Service, reached with env.fetch. */
  let gatewayUrl: string;
  let apiKey: string;
  /** A 2025-era session opened in scenario 2 and used again after the upgrade and the rollback. */
  let session: { client: Client; transport: StreamableHTTPClientTransport } | undefined;

  beforeAll(async () => {
    // The images first (minutes on a cold machine), so the one cluster per machine is held briefly.
    log(`building the images (hack/images/build.sh --tag ${OLD.tag})`);
    await run("bash", [join(REPO_ROOT, "hack/images/build.sh"), "--tag", OLD.tag, "--no-measure"], {
      maxBuffer: 64 * 1024 * 1024,
    });
    env = await startEnvironment({
      log: (line) => line.startsWith("cluster:") && log(line),
      // Other suites' clusters (one per machine) may run first.
      waitForOtherClusterMs: 1_800_000,
    });
    kubectl = env.kubectl;
    dir = await mkdtemp(join(tmpdir(), "atrium-e2e-"));
    const runHelm = helmCommand(env.helm, env.kubeconfigPath);
    helm = async (args, input) => {
      // These replace or remove pods, whose logs go with them: kept first, for the secrets scan.
      if (["upgrade", "rollback", "uninstall"].includes(args[0] ?? "")) await keepPodLogs(kubectl, podNamespaces);
      return runHelm(args, input);
    };
    for (const component of COMPONENTS) await env.loadImage(imageRef(component, OLD.tag));

    // PostgreSQL on this machine, at the address the node reaches it by (pods are routed through the node).
    const nodeIp = await kubectl([
      ...["get", "nodes", "-o"],
      'jsonpath={.items[0].status.addresses[?(@.type=="InternalIP")].address}',
    ]);
    const route = (await run("ip", ["-4", "route", "get", nodeIp])).stdout;
    const hostAddress = /\bsrc (\S+)/.exec(route)?.[1];
    if (!hostAddress) throw new Error(`no address of this machine routes to the node ${nodeIp}: ${route}`);
    const [port = 0] = await freePorts(1);
    postgres = await startPostgres({ host: hostAddress, port, clientCidr: "all" });
    const password = `pw-${Math.random().toString(36).slice(2)}`;
    recordSecret("database password", password);
    await postgres.psql(`create role atrium login password '${password}'`);
    await postgres.psql("create database atrium owner atrium");
    database = { host: hostAddress, port, database: "atrium", user: "atrium", existingSecret: "atrium-db" };
    await kubectl(["create", "namespace", NAMESPACE]);
    await kubectl(["-n", NAMESPACE, "create", "secret", "generic", "atrium-db", `--from-literal=password=${password}`]);

    gatewayUrl = `${env.serviceUrl(NAMESPACE, RELEASES.gateway, 7777)}/mcp/default/petstore`;
    api = new ControlPlaneApi(`${env.serviceUrl(NAMESPACE, RELEASES.controlPlane, 5555)}/api/v1`, env.fetch);
  }, 3_600_000);

  afterAll(async () => {
    await session?.client.close().catch(() => {});
    if (kubectl) await keepPodLogs(kubectl, podNamespaces).catch(() => {});
    await env?.stop();
    await postgres?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
    for (const component of COMPONENTS) await run(PODMAN, ["rmi", imageRef(component, NEW.tag)]).catch(() => {});
  }, 300_000);

  /** Opens an MCP session (the official v1 client, protocol 2025-11-25) on the petstore Exposition. */
  async function connect(): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
    const transport = new StreamableHTTPClientTransport(new URL(gatewayUrl), {
      requestInit: { headers: { "x-atrium-key": apiKey } },
      fetch: env.fetch,
    });
    const client = new Client({ name: "atrium-e2e", version: "1" });
    await client.connect(transport);
    return { client, transport };
  }

  /** listPets through `client`: the names of the available pets (the backend answers only with the backend secret). */
  async function availablePets(client: Client): Promise<string[]> {
    const result = await client.callTool({ name: "listPets", arguments: { status: "available" } });
    if (result.isError) throw new Error(`listPets failed: ${JSON.stringify(result.content)}`);
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("");
    return (JSON.parse(text) as { name: string }[]).map((pet) => pet.name);
  }

  /**
   * listPets on the session opened in scenario 2. Retried only when no answer came (kube-proxy may
   * briefly route to a pod that is gone): an answer refusing the session fails at once.
   */
  async function oldSessionWorks(): Promise<void> {
    const current = session;
    if (!current) throw new Error("scenario 2 opened no session");
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        expect(await availablePets(current.client)).toEqual(["Rex", "Whiskers"]);
        return;
      } catch (error) {
        if (!(error instanceof TypeError) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  }

  /** The HTTP status of a 2025-era tools/list on session `sessionId`, without the SDK. */
  async function sessionStatus(sessionId: string): Promise<number> {
    const response = await env.fetch(gatewayUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": sessionId,
        "x-atrium-key": apiKey,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    await response.body?.cancel();
    return response.status;
  }

  /** A fresh session that lists the tools and calls listPets, retried while the gateways sync. */
  async function toolCallWorks(what: string): Promise<void> {
    const pets = await eventually(what, 120_000, async () => {
      const fresh = await connect();
      try {
        return await availablePets(fresh.client);
      } finally {
        await fresh.client.close();
      }
    });
    expect(pets).toEqual(["Rex", "Whiskers"]);
  }

  /** Every sample resource, of all eight kinds, READY at its generation (observedGeneration). */
  async function samplesReady(timeoutMs = 180_000): Promise<void> {
    await eventually("every sample resource READY", timeoutMs, async () => {
      const pending: string[] = [];
      for (const kind of SAMPLE_KINDS) {
        const list = JSON.parse(await kubectl(["-n", SAMPLES_NAMESPACE, "get", kind.resource, "-o", "json"])) as {
          items: {
            metadata: { name: string; generation: number };
            status?: { status?: string; state?: string; observedGeneration?: number; message?: string };
          }[];
        };
        if (list.items.length === 0) pending.push(`${kind.resource}: none`);
        for (const item of list.items) {
          const state = item.status?.[kind.field];
          const current = item.status?.observedGeneration === item.metadata.generation;
          if (state !== "READY" || !current) {
            pending.push(
              `${kind.resource}/${item.metadata.name}: ${state} (generation ${item.metadata.generation}, observed ${item.status?.observedGeneration}) ${item.status?.message ?? ""}`,
            );
          }
        }
      }
      if (pending.length > 0) throw new Error(pending.join("; "));
      return true;
    });
  }

  /** Every Deployment of the namespace has all its replicas ready, on the `tag` images. */
  async function allReady(tag: string, expected: string[]): Promise<void> {
    const found = await deployments(kubectl);
    expect(found.map((d) => d.name).sort()).toEqual([...expected].sort());
    for (const deployment of found) {
      expect(deployment, deployment.name).toMatchObject({ ready: deployment.desired });
      expect(deployment.image, deployment.name).toMatch(new RegExp(`:${tag}$`));
    }
  }

  /** The Deployments of the three releases and the component each runs. */
  const COMPONENT_OF: Record<string, (typeof COMPONENTS)[number]> = {
    [RELEASES.controlPlane]: "control-plane",
    [`${RELEASES.controllers}-operator`]: "operator",
    [`${RELEASES.controllers}-webhook`]: "webhook",
    [RELEASES.gateway]: "gateway",
  };
  const ALL_DEPLOYMENTS = Object.keys(COMPONENT_OF);

  test("1. install: CRDs applied explicitly, the three charts on a real PostgreSQL, everything Ready", async () => {
    await kubectl(["apply", "--server-side", "-f", join(REPO_ROOT, "charts/controllers/crds")]);
    const crds = (await kubectl(["get", "crd", "-o", "name"]))
      .split("\n")
      .filter((name) => name.endsWith(".atrium.dev"));
    expect(crds).toHaveLength(8);
    await kubectl(["wait", "--for=condition=Established", ...crds, "--timeout=60s"]);

    values.controlPlane = await writeValues(
      dir,
      RELEASES.controlPlane,
      controlPlaneValues(OLD.tag, database, { keyIds: ["v1"], activeKeyId: "v1" }),
    );
    await helm([
      "install",
      RELEASES.controlPlane,
      join(REPO_ROOT, "charts/control-plane"),
      "-n",
      NAMESPACE,
      "-f",
      values.controlPlane,
      ...ROLLOUT,
    ]);
    const adminPassword = await secretEntry(kubectl, NAMESPACE, `${RELEASES.controlPlane}-admin`, "password");
    await api.login("default", "admin", adminPassword);
    // The control plane migrated the real PostgreSQL.
    expect(Number(await postgres.psql("select count(*) from drizzle.__drizzle_migrations", "atrium"))).toBeGreaterThan(
      0,
    );

    for (const [secret, role] of [
      ["atrium-gateway-token", "gateway"],
      ["atrium-operator-token", "operator"],
    ] as const) {
      const token = await api.createApiToken(`e2e-${role}`, role);
      await kubectl(["-n", NAMESPACE, "create", "secret", "generic", secret, `--from-literal=token=${token}`]);
    }
    values.controllers = await writeValues(dir, RELEASES.controllers, controllersValues(OLD.tag));
    await helm([
      "install",
      RELEASES.controllers,
      join(REPO_ROOT, "charts/controllers"),
      "-n",
      NAMESPACE,
      "-f",
      values.controllers,
      ...ROLLOUT,
    ]);
    values.gateway = await writeValues(dir, RELEASES.gateway, gatewayValues(OLD.tag));
    await helm([
      "install",
      RELEASES.gateway,
      join(REPO_ROOT, "charts/gateway"),
      "-n",
      NAMESPACE,
      "-f",
      values.gateway,
      ...ROLLOUT,
    ]);

    await allReady(OLD.tag, ALL_DEPLOYMENTS);
    const pods = JSON.parse(await kubectl(["-n", NAMESPACE, "get", "pods", "-o", "json"])) as {
      items: { metadata: { name: string }; status: { conditions?: { type: string; status: string }[] } }[];
    };
    for (const pod of pods.items) {
      expect(pod.status.conditions?.find((c) => c.type === "Ready")?.status, pod.metadata.name).toBe("True");
    }
    // Both gateways registered with the control plane, with the labels of their values.
    const gateways = await eventually("two gateways registered and UP", 60_000, async () => {
      const body = (await api.call("GET", "/gateways")) as {
        items: { health: string; labels?: Record<string, string> }[];
      };
      const up = body.items.filter((gateway) => gateway.health === "UP");
      return up.length === 2 ? up : undefined;
    });
    for (const gateway of gateways) expect(gateway.labels).toMatchObject(GATEWAY_LABELS);
  }, 1_200_000);

  test("2. samples applied with kubectl become READY, and an MCP client calls a tool through the gateway Service", async () => {
    await kubectl(["create", "namespace", SAMPLES_NAMESPACE]);
    await kubectl(["-n", SAMPLES_NAMESPACE, "apply", "-f", SAMPLES]);
    // The kind is Resources, plural: the singular Resource of controllers 0.0.2 is not served.
    const singular = { apiVersion: "atrium.dev/v1alpha1", kind: "Resource", metadata: { name: "singular" }, spec: {} };
    await expect(kubectl(["-n", SAMPLES_NAMESPACE, "apply", "-f", "-"], JSON.stringify(singular))).rejects.toThrow(
      /no matches for kind "Resource"/,
    );
    await samplesReady();
    // The samples' plan calls https://petstore.example.com; here it calls the pet store in the cluster.
    await kubectl(
      ["-n", SAMPLES_NAMESPACE, "apply", "-f", "-"],
      JSON.stringify(petstoreManifests(SAMPLES_NAMESPACE, imageRef("gateway", OLD.tag))),
    );
    await kubectl(["-n", SAMPLES_NAMESPACE, "rollout", "status", `deployment/${PETSTORE_SERVICE}`, "--timeout=180s"]);
    await kubectl([
      ...["-n", SAMPLES_NAMESPACE, "patch", "configurationplan", "petstore-plan", "--type", "merge", "-p"],
      JSON.stringify({ spec: { backendEndpoint: petstoreBackendUrl(SAMPLES_NAMESPACE) } }),
    ]);
    await samplesReady();

    // The operator wrote the plan's API key into the Secret the plan names.
    const keySecret = await secretData(kubectl, SAMPLES_NAMESPACE, "petstore-plan-api-key");
    const encoded = Object.values(keySecret)[0];
    if (!encoded) throw new Error("the Secret petstore-plan-api-key is empty");
    apiKey = Buffer.from(encoded, "base64").toString("utf8");

    // The backend answers only with the backend secret, which the gateway adds from the SecretSource.
    const petstore = env.serviceUrl(SAMPLES_NAMESPACE, PETSTORE_SERVICE, 8080);
    // kube-proxy programs the new Service's endpoint a moment after the rollout completes; until then
    // a connection to its address is refused (CI saw it).
    const unauthenticated = await eventually("the pet store Service to answer", 60_000, () =>
      env.fetch(`${petstore}/api/v1/pets`, { signal: AbortSignal.timeout(10_000) }),
    );
    expect(unauthenticated.status).toBe(401);
    await toolCallWorks("listPets through the gateway Service");
    session = await connect();
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["listPets", "getPet", "mark_pet_sold"]));
    expect(tools.map((tool) => tool.name)).not.toContain("deletePet"); // excludedOperations
    expect(session.transport.sessionId).toBeTruthy();
    expect(await availablePets(session.client)).toEqual(["Rex", "Whiskers"]);
  }, 900_000);

  /** The Secrets the charts keep across upgrades, rollbacks and uninstall, with their data. */
  async function keptSecrets(): Promise<Record<string, Record<string, string>>> {
    const names = [
      `${RELEASES.gateway}-cluster-keystore`,
      `${RELEASES.controlPlane}-encryption-key`,
      `${RELEASES.controlPlane}-admin`,
    ];
    return Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, await secretData(kubectl, NAMESPACE, name)] as const)),
    );
  }

  const packaged = (chart: string) => join(dir, "charts", `${chart}-${NEW.chart}.tgz`);

  test("3. upgrade to a new chart and app version in the spec's order; keystore, API keys and sessions survive", async () => {
    // A tested backup first: dump, restore into a scratch database, compare.
    const dump = join(dir, "atrium.dump");
    await postgres.client("pg_dump", ["-Fc", "-d", "atrium", "-f", dump]);
    await postgres.psql("create database atrium_restore_check");
    await postgres.client("pg_restore", ["--no-owner", "-d", "atrium_restore_check", dump]);
    for (const table of ["services", "configuration_plans", "expositions", "secrets", "api_tokens"]) {
      const count = `select count(*) from ${table}`;
      expect(await postgres.psql(count, "atrium_restore_check"), table).toBe(await postgres.psql(count, "atrium"));
    }
    await postgres.psql("drop database atrium_restore_check");
    const keptBefore = await keptSecrets();
    const tokensBefore = await postgres.psql("select count(*) from api_tokens", "atrium");

    // The new release: images under a new tag, charts packaged with a new version and appVersion.
    for (const component of COMPONENTS) {
      await run(PODMAN, ["tag", imageRef(component, OLD.tag), imageRef(component, NEW.tag)]);
      await env.loadImage(imageRef(component, NEW.tag));
    }
    for (const chart of ["control-plane", "controllers", "gateway"]) {
      await helm([
        ...["package", join(REPO_ROOT, "charts", chart), "-d", join(dir, "charts")],
        ...["--version", NEW.chart, "--app-version", NEW.tag],
      ]);
    }
    // The CRDs of the target release, applied explicitly before anything else (Helm does not upgrade them).
    await run("tar", ["-xzf", packaged("controllers"), "-C", dir]);
    await kubectl(["apply", "--server-side", "-f", join(dir, "controllers/crds")]);

    // Control plane first (it migrates), then the controllers, then the gateways: tracked values, tags pinned.
    const steps = [
      {
        release: RELEASES.controlPlane,
        chart: "control-plane",
        file: "controlPlane",
        deployments: [RELEASES.controlPlane],
      },
      {
        release: RELEASES.controllers,
        chart: "controllers",
        file: "controllers",
        deployments: [`${RELEASES.controllers}-operator`, `${RELEASES.controllers}-webhook`],
      },
      { release: RELEASES.gateway, chart: "gateway", file: "gateway", deployments: [RELEASES.gateway] },
    ] as const;
    const newValues = {
      controlPlane: controlPlaneValues(NEW.tag, database, { keyIds: ["v1"], activeKeyId: "v1" }),
      controllers: controllersValues(NEW.tag),
      gateway: gatewayValues(NEW.tag),
    };
    for (const step of steps) {
      values[step.file] = await writeValues(dir, step.release, newValues[step.file]);
      await helm([
        "upgrade",
        step.release,
        packaged(step.chart),
        "-n",
        NAMESPACE,
        "-f",
        values[step.file] ?? "",
        ...ROLLOUT,
      ]);
      const upgraded = (await deployments(kubectl)).filter((d) =>
        (step.deployments as readonly string[]).includes(d.name),
      );
      expect(upgraded).toHaveLength(step.deployments.length);
      for (const deployment of upgraded) {
        expect(deployment).toMatchObject({ chart: `${step.chart}-${NEW.chart}`, ready: deployment.desired });
        expect(deployment.image).toBe(imageRef(COMPONENT_OF[deployment.name] ?? "gateway", NEW.tag));
      }
      // The service stays up between the steps.
      await toolCallWorks(`listPets after upgrading ${step.release}`);
    }
    await allReady(NEW.tag, ALL_DEPLOYMENTS);

    // Nothing lost: kept Secrets, API tokens, resources, the plan's API key, and the session opened before.
    expect(await keptSecrets()).toEqual(keptBefore);
    expect(await postgres.psql("select count(*) from api_tokens", "atrium")).toBe(tokensBefore);
    await samplesReady();
    await oldSessionWorks();
    // ...because the new gateways share the keystore's session key, not because any id passes.
    const sessionId = session?.transport.sessionId ?? "";
    // One character changed in the middle (the last one of base64 may hold only padding bits).
    const middle = Math.floor(sessionId.length / 2);
    const forged = `${sessionId.slice(0, middle)}${sessionId[middle] === "A" ? "B" : "A"}${sessionId.slice(middle + 1)}`;
    expect(await sessionStatus(forged)).toBe(404);
    expect(await sessionStatus(sessionId)).toBe(200);
  }, 1_800_000);

  test("4. rotate the encryption key: key set to every replica, then activeKeyId, then re-encryption", async () => {
    const encryptionSecret = `${RELEASES.controlPlane}-encryption-key`;
    const [before] = [await secretData(kubectl, NAMESPACE, encryptionSecret)];
    const storedUnder = async (keyId: string) =>
      Number(
        await postgres.psql(`select count(*) from secrets where encrypted_value like 'gcm1:${keyId}:%'`, "atrium"),
      );
    const stored = Number(await postgres.psql("select count(*) from secrets", "atrium"));
    /** The control plane upgraded from tracked values with the key set v1 + v2 and `activeKeyId`. */
    const upgradeKeySet = async (activeKeyId: "v1" | "v2") => {
      values.controlPlane = await writeValues(
        dir,
        RELEASES.controlPlane,
        controlPlaneValues(NEW.tag, database, { keyIds: ["v1", "v2"], activeKeyId }),
      );
      const upgrade = ["upgrade", RELEASES.controlPlane, packaged("control-plane"), "-n", NAMESPACE];
      await helm([...upgrade, "-f", values.controlPlane, ...ROLLOUT]);
    };
    expect(stored).toBeGreaterThan(0); // the SecretSource's backend token
    expect(await storedUnder("v1")).toBe(stored);

    // 1. Distribute: v2 joins the key set on every replica; v1 stays active.
    await upgradeKeySet("v1");
    const withV2 = await secretData(kubectl, NAMESPACE, encryptionSecret);
    expect(withV2["encryption-key-v1"]).toBe(before["encryption-key-v1"]);
    expect(Buffer.from(withV2["encryption-key-v2"] ?? "", "base64").toString()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await allReady(NEW.tag, ALL_DEPLOYMENTS);
    // Every running replica has the whole key set, v1 still active, before anything writes with v2.
    const replicas = JSON.parse(
      await kubectl([
        ...["-n", NAMESPACE, "get", "pods", "-l", `app.kubernetes.io/instance=${RELEASES.controlPlane}`, "-o", "json"],
      ]),
    ) as {
      items: {
        metadata: { deletionTimestamp?: string };
        spec: { containers: { env?: { name: string; value?: string }[] }[] };
      }[];
    };
    const running = replicas.items.filter((pod) => !pod.metadata.deletionTimestamp);
    expect(running).toHaveLength(2);
    for (const pod of running) {
      const env = Object.fromEntries((pod.spec.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
      expect(env.ATRIUM_ENCRYPTION_KEYS).toMatch(
        /^v1=\$\(ATRIUM_ENCRYPTION_KEY_\d\),v2=\$\(ATRIUM_ENCRYPTION_KEY_\d\)$/,
      );
      expect(env.ATRIUM_ENCRYPTION_ACTIVE_KEY_ID).toBe("v1");
    }

    // 2. Switch the active key.
    await upgradeKeySet("v2");
    await allReady(NEW.tag, ALL_DEPLOYMENTS);

    // 3. Re-encrypt (a platform admin), twice: the second run finds nothing left to do.
    const adminPassword = await secretEntry(kubectl, NAMESPACE, `${RELEASES.controlPlane}-admin`, "password");
    await api.login("default", "admin", adminPassword);
    const first = (await api.call("POST", "/admin/reencrypt")) as {
      scanned: number;
      reencrypted: number;
      byPreviousKey: Record<string, number>;
    };
    expect(first).toMatchObject({ scanned: stored, reencrypted: stored, byPreviousKey: { v1: stored } });
    const second = (await api.call("POST", "/admin/reencrypt")) as { reencrypted: number; alreadyCurrent: number };
    expect(second).toMatchObject({ reencrypted: 0, alreadyCurrent: stored });
    expect(await storedUnder("v2")).toBe(stored);

    // Stored secrets still decrypt: restarted gateways receive the backend secret again and use it.
    await keepPodLogs(kubectl, podNamespaces);
    await kubectl(["-n", NAMESPACE, "rollout", "restart", `deployment/${RELEASES.gateway}`]);
    await kubectl(["-n", NAMESPACE, "rollout", "status", `deployment/${RELEASES.gateway}`, "--timeout=300s"]);
    await toolCallWorks("listPets with the re-encrypted backend secret");
    await oldSessionWorks();
  }, 1_200_000);

  test("5. helm rollback reapplies manifests only: no migration reversed, no CRD downgraded", async () => {
    const crdVersions = async () =>
      kubectl([
        "get",
        "crd",
        "-o",
        'jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion}{"\\n"}{end}',
      ]);
    const crdsBefore = await crdVersions();
    const migrations = "select count(*) from drizzle.__drizzle_migrations";
    const migrationsBefore = await postgres.psql(migrations, "atrium");
    const keptBefore = await keptSecrets();

    // Gateways and controllers back to the first release (chart 0.1.0, images e2e-1).
    await helm(["rollback", RELEASES.gateway, "1", "-n", NAMESPACE, ...ROLLOUT]);
    await helm(["rollback", RELEASES.controllers, "1", "-n", NAMESPACE, ...ROLLOUT]);
    // The control plane one step back (activeKeyId v1 again, key set v1+v2): no revision of it
    // before v2 was added may run, since its generated Secret would lose v2 (docs/kubernetes.md).
    await helm(["rollback", RELEASES.controlPlane, "3", "-n", NAMESPACE, ...ROLLOUT]);

    const found = await deployments(kubectl);
    for (const deployment of found) {
      const old = deployment.name !== RELEASES.controlPlane;
      expect(deployment.image, deployment.name).toMatch(new RegExp(`:${old ? OLD.tag : NEW.tag}$`));
      expect(deployment.chart, deployment.name).toMatch(
        old ? /-0\.1\.0$/ : new RegExp(`-${NEW.chart.replaceAll(".", "\\.")}$`),
      );
      expect(deployment.ready, deployment.name).toBe(deployment.desired);
    }
    // Manifests only: the CRDs stay the new release's, the database stays migrated, the kept Secrets stay.
    expect(await crdVersions()).toBe(crdsBefore);
    expect(await postgres.psql(migrations, "atrium")).toBe(migrationsBefore);
    expect(await keptSecrets()).toEqual(keptBefore);
    const activeKey = await kubectl([
      ...["-n", NAMESPACE, "get", "deployment", RELEASES.controlPlane, "-o"],
      'jsonpath={.spec.template.spec.containers[0].env[?(@.name=="ATRIUM_ENCRYPTION_ACTIVE_KEY_ID")].value}',
    ]);
    expect(activeKey).toBe("v1");

    await samplesReady();
    await toolCallWorks("listPets after the rollback");
    await oldSessionWorks();
  }, 1_200_000);

  test("6. uninstall with keepOnDelete: the records stay in the control plane, the kept Secrets stay", async () => {
    await session?.client.close();
    session = undefined;
    for (const kind of SAMPLE_KINDS) {
      for (const name of (await kubectl(["-n", SAMPLES_NAMESPACE, "get", kind.resource, "-o", "name"]))
        .split("\n")
        .filter(Boolean)) {
        await kubectl([
          "-n",
          SAMPLES_NAMESPACE,
          "patch",
          name,
          "--type",
          "merge",
          "-p",
          '{"spec":{"keepOnDelete":true}}',
        ]);
      }
    }
    await samplesReady();
    // The operator reads keepOnDelete from the object being deleted: it removes only its finalizer.
    await kubectl(["-n", SAMPLES_NAMESPACE, "delete", "-f", SAMPLES, "--wait=true", "--timeout=180s"]);
    for (const kind of SAMPLE_KINDS) {
      expect(await kubectl(["-n", SAMPLES_NAMESPACE, "get", kind.resource, "-o", "name"]), kind.resource).toBe("");
    }
    // The records are still in the control plane.
    expect(await api.names("/services")).toContain("petstore");
    expect(await api.names("/configuration-plans")).toContain("petstore-plan");
    expect(await api.names("/gateway-groups")).toContain("dev-gateways");
    expect(await api.names("/expositions")).toContain("petstore");
    const keptBefore = await keptSecrets();

    for (const release of [RELEASES.gateway, RELEASES.controllers, RELEASES.controlPlane]) {
      await helm(["uninstall", release, "-n", NAMESPACE, "--wait", "--timeout", "5m"]);
    }
    expect(await deployments(kubectl)).toEqual([]);
    // Kept: the Secrets with helm.sh/resource-policy: keep, the CRDs, and the records in PostgreSQL.
    expect(await keptSecrets()).toEqual(keptBefore);
    const crds = (await kubectl(["get", "crd", "-o", "name"]))
      .split("\n")
      .filter((name) => name.endsWith(".atrium.dev"));
    expect(crds).toHaveLength(8);
    // The samples hold other Services too (GraphQL, gRPC): the working set's is among them.
    expect((await postgres.psql("select name from services", "atrium")).split("\n")).toContain("petstore");
    expect(await postgres.psql("select name from expositions", "atrium")).toBe("petstore");
  }, 900_000);
});
