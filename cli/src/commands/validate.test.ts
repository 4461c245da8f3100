/**
 * `atrium validate` as a user runs it: files with several documents, stdin, kinds it leaves to
 * the API server, text that is not YAML, a missing file, and the table people read. (Every sample
 * against the other entry points: ../rulebook.test.ts.)
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fails, runAtrium, testEnv } from "../testing.ts";

let dir: string;
let env: NodeJS.ProcessEnv;

const group = (name: string, labels: string) =>
  `apiVersion: atrium.dev/v1alpha1\nkind: GatewayGroup\nmetadata:\n  name: ${name}\nspec:\n  labels: ${labels}\n`;
const secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: token\nstringData:\n  token: x\n";

const validate = (args: string[], stdin?: string) =>
  runAtrium(["validate", ...args], { env, ...(stdin === undefined ? {} : { stdin }) });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "atrium-validate-"));
  env = testEnv();
  await writeFile(join(dir, "set.yaml"), `${group("dev", "{ env: dev }")}---\n${secret}`);
  await writeFile(join(dir, "bad.yaml"), `${group("dev", "{ env: dev }")}---\n${group("prod", "{ 'bad key!': x }")}`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  if (env.ATRIUM_CONFIG_DIR) await rm(env.ATRIUM_CONFIG_DIR, { recursive: true, force: true });
});

describe("atrium validate", () => {
  it("accepts a valid set and leaves other kinds to the API server", async () => {
    const run = await validate([join(dir, "set.yaml")]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^FILE\s+KIND\s+NAME\s+RESULT$/m);
    expect(run.stdout).toMatch(/set\.yaml\s+GatewayGroup\s+dev\s+valid$/m);
    expect(run.stdout).toMatch(/set\.yaml#1\s+Secret\s+token\s+skipped: not an atrium\.dev resource$/m);
  });

  it("names each invalid document's field and exits 1", async () => {
    const run = await validate([join(dir, "bad.yaml"), "-o", "json"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("error: 1 of 2 resources invalid: fix the fields named above\n");
    expect(JSON.parse(run.stdout)).toEqual([
      expect.objectContaining({ document: 0, name: "dev", valid: true, violations: [] }),
      expect.objectContaining({
        document: 1,
        kind: "GatewayGroup",
        name: "prod",
        valid: false,
        violations: [{ field: "spec.labels[bad key!]", message: expect.stringMatching(/^must be a label key/) }],
      }),
    ]);
  });

  it("reads stdin for '-', and says when it is not YAML", async () => {
    const fromStdin = await validate(["-"], group("dev", "{ env: dev }"));
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const garbage = await validate(["-", "-o", "json"], "kind: [unclosed");
    expect(garbage.code).toBe(1);
    expect(JSON.parse(garbage.stdout)[0].violations[0]).toEqual({
      field: "<root>",
      message: expect.stringMatching(/^not YAML or JSON: /),
    });
  });

  it("says which file it cannot read", async () => {
    fails(await validate([join(dir, "missing.yaml")]), 1, /^error: Cannot read .*missing\.yaml: /);
  });
});
