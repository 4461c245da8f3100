/**
 * The plan form keeps a plan's toolOverrides and maxResultBytes as saved (it has no inputs for
 * them yet): saving the form must not drop them.
 */
import { planBody } from "@atrium/contract/rest";
import { expect, it } from "vitest";
import { type PlanView, planBodyOf, planFormOf } from "./app/plan-fields.ts";

const CURATED = {
  name: "curated",
  serviceId: "0b0f8f4e-1d7e-4c61-8d45-3f4b9a3f2a11",
  backendEndpoint: "https://petstore.example.com",
  backendTimeoutMs: 30000,
  toolExposureMode: "PerOperation",
  apiKey: false,
  circuitBreaker: { enabled: true, consecutiveFailures: 5, coolDownSeconds: 30 },
  audit: false,
  elicitMissingArguments: false,
  toolOverrides: { getPet: { name: "get_pet", fixedArguments: { petId: 7 }, maxResultBytes: 4096 } },
  maxResultBytes: 65536,
} as const;

it("gives back a plan's toolOverrides and maxResultBytes, as a body the control plane accepts", () => {
  const { apiKey: _apiKey, ...settings } = CURATED;
  const view = { ...settings, id: "3c7f0a9e-4f3b-4d2a-9a57-7a2f5d9d1b10", hasApiKey: false } as unknown as PlanView;
  const read = planBodyOf(planFormOf(view));
  if (!("body" in read)) throw new Error(`refused: ${JSON.stringify(read.errors)}`);
  const body = JSON.parse(JSON.stringify(read.body));
  expect(body).toEqual(CURATED);
  expect(planBody.safeParse(body).error?.issues ?? []).toEqual([]);
});
