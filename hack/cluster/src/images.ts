/**
 * Images on the node. The cluster's own two are built locally from scratch with podman: busybox
 * (Debian's static binary; the pod sandbox — `sleep infinity` at an absolute path — and the test
 * workloads) and CoreDNS (the binary hack/kube/build.sh built). Any podman image is loaded with
 * `podman save` + `ctr images import`; pods use them with `imagePullPolicy: Never`.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { containerdRoot } from "./layout.ts";

const run = promisify(execFile);
const PODMAN = resolve(import.meta.dirname, "../../images/podman");
const BUSYBOX = "/bin/busybox";

async function command(file: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(file, args, { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? String(error);
    throw new Error(`${file} ${args.join(" ")} failed: ${stderr.trim()}`);
  }
}

export function podman(args: string[]): Promise<string> {
  return command(PODMAN, args);
}

async function imageExists(ref: string): Promise<boolean> {
  return podman(["image", "exists", ref]).then(
    () => true,
    () => false,
  );
}

/**
 * Builds `ref` from scratch with the given files (name in image → path on host) and Containerfile
 * `lines` unless it exists: put the version of what it holds in the tag.
 */
export async function buildFromScratch(ref: string, files: Record<string, string>, lines: string[]): Promise<string> {
  if (await imageExists(ref)) return ref;
  const context = await mkdtemp(join(tmpdir(), "atrium-cluster-image-"));
  try {
    const copies: string[] = [];
    for (const [target, source] of Object.entries(files)) {
      const name = target.replaceAll("/", "_");
      await copyFile(source, join(context, name));
      copies.push(`COPY ${name} ${target}`);
    }
    await writeFile(join(context, "Containerfile"), ["FROM scratch", ...copies, ...lines, ""].join("\n"));
    await podman(["build", "--quiet", "--tag", ref, context]);
    return ref;
  } finally {
    await rm(context, { recursive: true, force: true });
  }
}

/** The version Debian's busybox-static reports, for the tag. */
async function busyboxVersion(): Promise<string> {
  const text = await command(BUSYBOX, ["--help"]).catch((error: Error) => error.message);
  const match = /BusyBox v([0-9.]+)/.exec(text);
  if (!match?.[1]) throw new Error(`cannot read the version of ${BUSYBOX} (install busybox-static): ${text}`);
  return match[1];
}

/** localhost/atrium-cluster/busybox:<version>: sandbox image and test workloads. */
export async function busyboxImage(): Promise<string> {
  return buildFromScratch(`localhost/atrium-cluster/busybox:${await busyboxVersion()}`, { "/bin/busybox": BUSYBOX }, [
    'CMD ["/bin/busybox", "sleep", "infinity"]',
  ]);
}

/** localhost/atrium-cluster/coredns:<version>. */
export async function corednsImage(binary: string, version: string): Promise<string> {
  return buildFromScratch(`localhost/atrium-cluster/coredns:${version}`, { "/coredns": binary }, [
    'ENTRYPOINT ["/coredns"]',
  ]);
}

// Which podman image id each reference was last imported from: an unchanged image is not imported again.
const IMPORTED = () => join(containerdRoot(), "imported.json");

/** Copies a podman image into the node's containerd (namespace k8s.io). */
export async function importImage(ref: string, containerdSocket: string, log: (line: string) => void): Promise<void> {
  const id = (await podman(["image", "inspect", "--format", "{{.Id}}", ref])).trim();
  const imported = JSON.parse(await readFile(IMPORTED(), "utf8").catch(() => "{}")) as Record<string, string>;
  const ctr = ["--address", containerdSocket, "-n", "k8s.io"];
  const present = (await command("ctr", [...ctr, "images", "ls", "-q"])).split("\n").includes(ref);
  if (present && imported[ref] === id) return;
  const started = Date.now();
  const dir = await mkdtemp(join(tmpdir(), "atrium-cluster-save-"));
  try {
    const archive = join(dir, "image.tar");
    await podman(["save", "--quiet", "--output", archive, ref]);
    await command("ctr", [...ctr, "images", "import", archive]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  imported[ref] = id;
  await writeFile(IMPORTED(), JSON.stringify(imported, null, 2));
  log(`cluster: image ${ref} loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
