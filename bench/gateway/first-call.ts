/**
 * What a token costs the first time, which the hot path (one token, cached) never shows: a fresh
 * gateway (core 0) serving the pets Exposition three times — open, behind OAuth, and behind OAuth
 * with the caller's token exchanged for the backend (RFC 8693, token-exchange-server.ts) — is
 * called from the runner over one kept-alive connection:
 * 1. one call to the open Exposition (the gateway's own first-call work: JIT, backend connection);
 * 2. the first call with a token: the key set is not fetched yet, so this is a JWKS fetch plus a
 *    signature check (plus the first run of the verification code); then the exchange
 *    Exposition's first call, a new caller: the gateway's first token exchange;
 * 3. then, interleaved, N times: a new token (JWKS warm: a signature check), the first token
 *    again (a cache hit), and the open Exposition (no auth); then the exchange Exposition with a
 *    new caller's token (a signature check plus a token exchange) and with that token again (both
 *    cached) — so the differences are taken between calls a few milliseconds apart.
 * Repeated on `coldStarts` fresh gateways; the key set must have been fetched once by each, and
 * each new caller exchanged once.
 */
import type { ApiClient } from "@atrium/control-plane/testing";
import { Pool } from "undici";
import { type BenchContext, startAtriumGateway } from "./contestants.ts";
import { median } from "./load.ts";
import { type ClientCredential, modernHeaders, petOf, toolCallBody } from "./mcp.ts";
import type { BenchIssuer } from "./oauth-issuer.ts";
import { UNDISTURBED_ATTEMPTS, undisturbed } from "./outside-load.ts";
import { createExposition, createGroup } from "./setup.ts";
import type { BenchExchangeServer } from "./token-exchange-server.ts";

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
  /** Per fresh gateway: its first call with a token to exchange (key set warm, a new caller). */
  coldExchangeMs: number[];
  /** Every first call of a new caller on the exchange Exposition (signature check and exchange). */
  newExchangeMs: number[];
  /** Every call of a caller already exchanged (token and exchanged token cached). */
  cachedExchangeMs: number[];
  /** Key-set fetches the issuer served during the measurement (one per fresh gateway is right). */
  jwksFetches: number;
  /** Token exchanges answered during the measurement (one per new caller is right). */
  exchanges: number;
  /** Cores' worth of CPU other processes used meanwhile (median over the gateways). */
  othersBusy: number;
}

/** The three Expositions the fresh gateways serve (their group selects `role=first-call`). */
export async function createFirstCallExpositions(
  admin: ApiClient,
  plans: { openPlanId: string; oauthPlanId: string; exchangePlanId: string },
): Promise<FirstCallExpositions> {
  const groupId = await createGroup(admin, ROLE);
  return {
    openId: await createExposition(admin, "pets-first-open", plans.openPlanId, groupId),
    oauthId: await createExposition(admin, "pets-first-oauth", plans.oauthPlanId, groupId),
    exchangeId: await createExposition(admin, "pets-first-exchange", plans.exchangePlanId, groupId),
  };
}

export interface FirstCallExpositions {
  openId: string;
  oauthId: string;
  exchangeId: string;
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
  exchange: BenchExchangeServer,
  expositions: FirstCallExpositions & { audience: string; scope: string },
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
    coldExchangeMs: [],
    newExchangeMs: [],
    cachedExchangeMs: [],
    jwksFetches: 0,
    exchanges: 0,
    othersBusy: Number.NaN,
  };
  const others: number[] = [];
  const mint = () => issuer.mint({ audience: expositions.audience, scope: expositions.scope });
  // The exchange cache holds one entry per caller: each exchange call is a new caller (subject).
  let callers = 0;
  const mintCaller = () => {
    callers += 1;
    return issuer.mint({ audience: expositions.audience, scope: expositions.scope, subject: `caller-${callers}` });
  };
  let gateways = 0;
  for (let start = 1; start <= options.coldStarts; start++) {
    progress(`first calls: fresh gateway ${start}/${options.coldStarts}, ${options.tokens} new tokens`);
    const attempts = options.waitForQuiet ? UNDISTURBED_ATTEMPTS : 1;
    const measured = await undisturbed(`first calls ${start}`, attempts, progress, async () => {
      gateways += 1;
      // Minted before the gateway starts: signing is the issuer's cost, not the gateway's.
      const firstToken = await mint();
      const newTokens = await Promise.all(Array.from({ length: options.tokens }, mint));
      const firstCaller = await mintCaller();
      const newCallers = await Promise.all(Array.from({ length: options.tokens }, mintCaller));
      const gateway = await startAtriumGateway(context, {
        id: `gw-first-${gateways}`,
        role: ROLE,
        expectedExpositions: 3,
      });
      const pool = new Pool(gateway.url, { connections: 1 });
      try {
        const open = `/mcp/${expositions.openId}`;
        const protectedPath = `/mcp/${expositions.oauthId}`;
        const exchangePath = `/mcp/${expositions.exchangeId}`;
        const fetchesBefore = issuer.jwksFetches;
        const exchangesBefore = exchange.exchanges;
        let id = 1;
        const firstOpen = await timedCall(pool, open, {}, id++);
        const coldJwks = await timedCall(pool, protectedPath, { bearerToken: firstToken }, id++);
        const coldExchange = await timedCall(pool, exchangePath, { bearerToken: firstCaller }, id++);
        const newToken: number[] = [];
        const cachedToken: number[] = [];
        const openCalls: number[] = [];
        const newExchange: number[] = [];
        const cachedExchange: number[] = [];
        for (const [i, token] of newTokens.entries()) {
          newToken.push(await timedCall(pool, protectedPath, { bearerToken: token }, id++));
          cachedToken.push(await timedCall(pool, protectedPath, { bearerToken: firstToken }, id++));
          openCalls.push(await timedCall(pool, open, {}, id++));
          const caller = { bearerToken: newCallers[i] };
          newExchange.push(await timedCall(pool, exchangePath, caller, id++));
          cachedExchange.push(await timedCall(pool, exchangePath, caller, id++));
        }
        return {
          firstOpen,
          coldJwks,
          coldExchange,
          newToken,
          cachedToken,
          openCalls,
          newExchange,
          cachedExchange,
          jwksFetches: issuer.jwksFetches - fetchesBefore,
          exchanges: exchange.exchanges - exchangesBefore,
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
    result.coldExchangeMs.push(value.coldExchange);
    result.newExchangeMs.push(...value.newExchange);
    result.cachedExchangeMs.push(...value.cachedExchange);
    result.jwksFetches += value.jwksFetches;
    result.exchanges += value.exchanges;
    others.push(measured.others);
  }
  result.othersBusy = median(others);
  return result;
}
