/**
 * The control plane's refusal of deeply nested request bodies: checked by the contract's linear
 * nesting scan before fastify parses the body, so the validators that walk it never overflow
 * their stack (a 400 naming the body, never a 500).
 */
import { nestsDeeperThan } from "@atrium/contract/json-depth";
import type { FastifyInstance } from "fastify";

/**
 * Replaces the server's `application/json` parser by one that refuses, with `tooDeep()`, a body
 * nested deeper than `max` before parsing it (fastify's own parser does the rest).
 */
export function refuseDeepJsonBodies(app: FastifyInstance, max: number, tooDeep: () => Error): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (nestsDeeperThan(String(body), max)) return done(tooDeep(), undefined);
    parse(request, String(body), done);
  });
}
