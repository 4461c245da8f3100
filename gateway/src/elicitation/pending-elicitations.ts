/**
 * The gateway's side of pending elicitations (issue 15; used by flow.ts and the page): records one in the control plane when a user is asked for a credential, reads
 * it for the page, and consumes it when the page's form is accepted. Any replica can do each
 * step; the control plane makes the consume single-use across all of them.
 */
import { type ElicitationView, elicitationView } from "@atrium/contract/rest";
import { type RestClient, RestProblemError } from "@atrium/contract/rest-client";
import { ELICITATION_ID_TTL_SECONDS, elicitationIdHash, newElicitationId } from "./elicitation-id.ts";

export type ConsumeResult =
  | { ok: true; elicitation: ElicitationView }
  | { ok: false; reason: "unknown" | "used" | "expired" };

export class PendingElicitations {
  private readonly rest: RestClient;

  constructor(rest: RestClient) {
    this.rest = rest;
  }

  /** Records a new elicitation; its id (for the page URL), which only this call ever sees. */
  async record(
    expositionId: string,
    principalDigest: string,
    tool: string,
    ttlSeconds = ELICITATION_ID_TTL_SECONDS,
  ): Promise<{ id: string; elicitation: ElicitationView }> {
    const id = newElicitationId();
    const elicitation = await this.rest.post(
      "/elicitations",
      {
        idHash: elicitationIdHash(id),
        expositionId,
        principal: principalDigest,
        tool,
        expiresAt: new Date(Date.now() + ttlSeconds * 1000).toISOString(),
      },
      elicitationView,
    );
    return { id, elicitation };
  }

  /** The elicitation a page URL names, or undefined when unknown (never recorded, or expired and removed). */
  async read(id: string): Promise<ElicitationView | undefined> {
    return this.rest.send("GET", `/elicitations/${elicitationIdHash(id)}`, {
      answer: elicitationView,
      tolerate: [404],
    });
  }

  /** Uses it up: only the first consume, on any replica, before it expires, succeeds. */
  async consume(id: string): Promise<ConsumeResult> {
    try {
      const elicitation = await this.rest.send("POST", `/elicitations/${elicitationIdHash(id)}/consume`, {
        answer: elicitationView,
        tolerate: [404],
      });
      return elicitation ? { ok: true, elicitation } : { ok: false, reason: "unknown" };
    } catch (error) {
      if (error instanceof RestProblemError && error.status === 409)
        return { ok: false, reason: error.problem?.code === "ELICITATION_USED" ? "used" : "expired" };
      throw error;
    }
  }
}
