/**
 * Test support for the elicitation page: an Exposition whose plan elicits its backend secret
 * (under the id of a real one of the test control plane), and the page served on its own fastify
 * instance on 127.0.0.1 with the real pending elicitations and credential store, logging every
 * request at trace level into `logLines`.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { recordSecret } from "@atrium/reliability/secrets";
import Fastify, { type FastifyInstance } from "fastify";
import { exposition as fixtureExposition } from "../tools/fixtures.ts";
import type { CompiledExposition } from "../tools/source.ts";
import { BackendGrants } from "./backend-grant.ts";
import type { ClusterKeyring } from "./cluster-keys.ts";
import { type CredentialScope, credentialScope, ElicitedCredentialStore } from "./credential-store.ts";
import { type ElicitationPageParts, elicitationPage } from "./page.ts";
import { PendingElicitations } from "./pending-elicitations.ts";
import type { ElicitationTestStack } from "./testing.ts";

export function elicitingExposition(id: string): CompiledExposition {
  const base = fixtureExposition();
  return {
    ...base,
    id,
    name: "weather",
    plan: {
      ...base.plan,
      backendSecret: {
        source: "elicit",
        description: "Your OpenWeather API key",
        in: "header",
        name: "X-Api-Key",
        prefix: "Key ",
      },
    },
  };
}

/** Where the page stores the credentials of the stack's Exposition: its id, and its plan's backend. */
export function elicitingScope(stack: ElicitationTestStack): CredentialScope {
  return credentialScope(elicitingExposition(stack.expositionId));
}

export function pageServices(
  stack: ElicitationTestStack,
  keyring: ClusterKeyring,
  store = new ElicitedCredentialStore(stack.rest, keyring),
): ElicitationPageParts["services"] {
  return { keyring, store, pending: new PendingElicitations(stack.rest), grants: new BackendGrants(keyring) };
}

export interface PageServer {
  app: FastifyInstance;
  url: string;
}

/** The page for the stack's first Exposition; `overrides` replace its parts. */
export async function startPageServer(
  stack: ElicitationTestStack,
  keyring: ClusterKeyring,
  logLines: string[],
  overrides: Partial<ElicitationPageParts> = {},
): Promise<PageServer> {
  const log = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { level: "trace", stream: log } });
  const served = elicitingExposition(stack.expositionId);
  await app.register(async (scope) =>
    elicitationPage(scope, {
      services: pageServices(stack, keyring),
      exposition: (id) => (id === served.id ? served : undefined),
      ...overrides,
    }),
  );
  return { app, url: await app.listen({ host: "127.0.0.1", port: 0 }) };
}

/** A new backend key for a user to give on the page, recorded so that no log may carry it. */
export function newPetKey(): string {
  const value = `pet-key-${randomBytes(12).toString("hex")}`;
  recordSecret("elicited credential", value);
  return value;
}
