/**
 * Test support for the elicitation clients: a real control plane (PGlite) with two Expositions
 * and REST clients holding gateway tokens of its organization and of another one.
 */

import { RestClient } from "@atrium/contract/rest-client";
import {
  addOrganization,
  expose,
  type IsolatedControlPlane,
  startIsolatedControlPlane,
  tokenClient,
} from "@atrium/control-plane/testing";
import { afterAll, beforeAll } from "vitest";

export interface ElicitationTestStack {
  controlPlane: IsolatedControlPlane;
  expositionId: string;
  secondExpositionId: string;
  /** Gateway token of the Expositions' organization. */
  rest: RestClient;
  /** Gateway token of another organization. */
  otherOrganizationRest: RestClient;
}

/** Started before the file's tests, stopped after them; the getter is for the tests. */
export function useElicitationStack(): () => ElicitationTestStack {
  let stack: ElicitationTestStack | undefined;
  beforeAll(async () => {
    const controlPlane = await startIsolatedControlPlane("pglite");
    const other = await addOrganization(controlPlane, "other");
    const created = await other.call("POST", "/api/v1/api-tokens", { name: "other-gateways", validityDays: 1 });
    stack = {
      controlPlane,
      expositionId: (await expose(controlPlane.admin, "weather")).expositionId,
      secondExpositionId: (await expose(controlPlane.admin, "maps")).expositionId,
      rest: new RestClient({ baseUrl: controlPlane.url, token: (await tokenClient(controlPlane)).token }),
      otherOrganizationRest: new RestClient({ baseUrl: controlPlane.url, token: created.body.token }),
    };
  });
  afterAll(async () => {
    await stack?.controlPlane.stop();
  });
  return () => {
    if (!stack) throw new Error("started before the tests, and not yet");
    return stack;
  };
}
