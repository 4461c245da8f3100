/**
 * What client authentication costs, measured inside ONE gateway process (one-gateway-cost.ts): it
 * serves the pets Exposition three times — open, behind an API key, behind OAuth (one cached
 * token) — loaded in turn, in rounds. The hot-path table compares separate gateway processes,
 * and on a shared VM two processes running the same code differ by up to ± 20 % in CPU per call;
 * here that difference is gone, so what is left is the credential's own cost.
 */
import type { ApiClient } from "@atrium/control-plane/testing";
import type { AtriumAuth, BenchContext } from "./contestants.ts";
import type { ClientCredential } from "./mcp.ts";
import { measureOnOneGateway, type OneGatewayOptions, type OneGatewayResult } from "./one-gateway-cost.ts";
import { createExposition, createGroup } from "./setup.ts";

const ROLE = "auth-cost";

export type AuthCostMode = Omit<OneGatewayResult<AtriumAuth>["variants"][number], "label"> & { auth: AtriumAuth };

export type AuthCostResult = Omit<OneGatewayResult<AtriumAuth>, "variants"> & { modes: AuthCostMode[] };

/** One Exposition per mode, in a group of their own that the auth-cost gateway serves. */
export async function createAuthCostExpositions(
  admin: ApiClient,
  plans: Record<AtriumAuth, string>,
): Promise<Record<AtriumAuth, string>> {
  const groupId = await createGroup(admin, ROLE);
  return {
    none: await createExposition(admin, "pets-cost-open", plans.none, groupId),
    apiKey: await createExposition(admin, "pets-cost-keyed", plans.apiKey, groupId),
    oauth: await createExposition(admin, "pets-cost-oauth", plans.oauth, groupId),
  };
}

export async function measureAuthCost(
  context: BenchContext,
  expositions: Record<AtriumAuth, string>,
  credentials: Record<AtriumAuth, ClientCredential>,
  options: OneGatewayOptions,
  progress: (message: string) => void,
): Promise<AuthCostResult> {
  const variants = (["none", "apiKey", "oauth"] as const).map((auth) => ({
    label: auth,
    expositionId: expositions[auth],
    credential: credentials[auth],
  }));
  const { variants: measured, ...run } = await measureOnOneGateway(context, ROLE, variants, options, progress);
  return { ...run, modes: measured.map(({ label, ...cost }) => ({ auth: label, ...cost })) };
}
