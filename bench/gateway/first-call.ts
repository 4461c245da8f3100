/**
 * What a token costs the first time, which the hot path (one token, cached) never shows: a fresh
 * gateway (core 0) serving the pets Exposition twice — open, and behind OAuth — is called from
 * the runner over one kept-alive connection:
 * 1. one call to the open Exposition (the gateway's own first-call work: JIT, backend connection);
 * 2. the first call with a token: the key set is not fetched yet, so this is a JWKS fetch plus a
 *    signature check (plus the first run of the verification code);
 * 3. then, interleaved, N times: a new token (JWKS warm: a signature check), the first token
 *    again (a cache hit), and the open Exposition (no auth) — so the differences are taken
 *    between calls a few milliseconds apart.
 * Repeated on `coldStarts` fresh gateways; the key set must have been fetched once by each.
 */
import type { ApiClient } from "@atrium/control-plane/testing";
import { Pool } from "undici";
import { type BenchContext, startAtriumGateway } from "./contestants.ts";
import { median } from "./load.ts";
import { type ClientCredential, modernHeaders, petOf, toolCallBody } from "./mcp.ts";
import type { BenchIssuer } from "./oauth-issuer.ts";
import { UNDISTURBED_ATTEMPTS, undisturbed } from "./outside-load.ts";
import { createExposition, createGroup } from "./setup.ts";

const PET_ID = 7;
const ROLE = "first-call";

export interface FirstCallOptions {
  /** Fresh gateways, each measured once. */
  coldStarts: number;
  /** New tokens (and as many cached-token and open calls) per gateway. */
  tokens: number;
  /** Wait for a quiet machine and repeat disturbed measurements (not in a smoke run). */
  waitForQuiet: boolean;
}

export interface FirstCallResult {
  coldStarts: number;
  tokensPerStart: number;
  /** Per fresh gateway: its first call, open Exposition. */
  firstOpenMs: number[];
  /** Per fresh gateway: its first call with a token (key set not fetched yet). */
  coldJwksMs: number[];
  /** Every first call of a new token on a warm key set. */
  newTokenMs: number[];
  /** Every call with a token already verified. */
  cachedTokenMs: number[];
  /** Every call to the open Exposition after the first. */
  openMs: number[];
  /** Key-set fetches the issuer served during the measurement (one per fresh gateway is right). */
  jwksFetches: number;
  /** Cores' worth of CPU other processes used meanwhile (median over the gateways). */
  othersBusy: number;
}

/** The two Expositions the fresh gateways serve (their group selects `role=first-call`). */
export async function createFirstCallExpositions(
  admin: ApiClient,
  plans: { openPlanId: string; oauthPlanId: string },
): Promise<{ openId: string; oauthId: string }> {
  const groupId = await createGroup(admin, ROLE);
  return {
    openId: await createExposition(admin, "pets-first-open", plans.openPlanId, groupId),
    oauthId: await createExposition(admin, "pets-first-oauth", plans.oauthPlanId, groupId),
  };
}

/** One timed tools/call of getPet over `pool`, checked for the right pet once timed. */
async function timedCall(pool: Pool, path: string, credential: ClientCredential, id: number): Promise<number> {
  const started = performance.now();
  const response = await pool.request({
    path,
    method: "POST",
    headers: modernHeaders("getPet", credential),
    body: toolCallBody(id, PET_ID, "getPet", true),
  });
  const text = await response.body.text();
  const elapsed = performance.now() - started;
  if (response.statusCode !== 200)
    throw new Error(`POST ${path} answered ${response.statusCode}: ${text.slice(0, 500)}`);
  if (petOf(JSON.parse(text)).id !== PET_ID) throw new Error(`POST ${path}: not pet ${PET_ID}`);
  return elapsed;
}

export async function measureFirstCalls(
  context: BenchContext,
  issuer: BenchIssuer,
  expositions: { openId: string; oauthId: string; audience: string; scope: string },
  options: FirstCallOptions,
  progress: (message: string) => void,
): Promise<FirstCallResult> {
  const result: FirstCallResult = {
    coldStarts: options.coldStarts,
    tokensPerStart: options.tokens,
    firstOpenMs: [],
    coldJwksMs: [],
    newTokenMs: [],
    cachedTokenMs: [],
    openMs: [],
    jwksFetches: 0,
    othersBusy: Number.NaN,
  };
  const others: number[] = [];
  const mint = () => issuer.mint({ audience: expositions.audience, scope: expositions.scope });
  let gateways = 0;
  for (let start = 1; start <= options.coldStarts; start++) {
    progress(`first calls: fresh gateway ${start}/${options.coldStarts}, ${options.tokens} new tokens`);
    const attempts = options.waitForQuiet ? UNDISTURBED_ATTEMPTS : 1;
    const measured = await undisturbed(`first calls ${start}`, attempts, progress, async () => {
      gateways += 1;
      // Minted before the gateway starts: signing is the issuer's cost, not the gateway's.
      const firstToken = await mint();
      const newTokens = await Promise.all(Array.from({ length: options.tokens }, mint));
      const gateway = await startAtriumGateway(context, {
        id: `gw-first-${gateways}`,
        role: ROLE,
        expectedExpositions: 2,
      });
      const pool = new Pool(gateway.url, { connections: 1 });
      try {
        const open = `/mcp/${expositions.openId}`;
        const protectedPath = `/mcp/${expositions.oauthId}`;
        const fetchesBefore = issuer.jwksFetches;
        let id = 1;
        const firstOpen = await timedCall(pool, open, {}, id++);
        const coldJwks = await timedCall(pool, protectedPath, { bearerToken: firstToken }, id++);
        const newToken: number[] = [];
        const cachedToken: number[] = [];
        const openCalls: number[] = [];
        for (const token of newTokens) {
          newToken.push(await timedCall(pool, protectedPath, { bearerToken: token }, id++));
          cachedToken.push(await timedCall(pool, protectedPath, { bearerToken: firstToken }, id++));
          openCalls.push(await timedCall(pool, open, {}, id++));
        }
        return {
          firstOpen,
          coldJwks,
          newToken,
          cachedToken,
          openCalls,
          jwksFetches: issuer.jwksFetches - fetchesBefore,
        };
      } finally {
        await pool.close();
        await gateway.child.stop();
      }
    });
    const value = measured.value;
    result.firstOpenMs.push(value.firstOpen);
    result.coldJwksMs.push(value.coldJwks);
    result.newTokenMs.push(...value.newToken);
    result.cachedTokenMs.push(...value.cachedToken);
    result.openMs.push(...value.openCalls);
    result.jwksFetches += value.jwksFetches;
    others.push(measured.others);
  }
  result.othersBusy = median(others);
  return result;
}
