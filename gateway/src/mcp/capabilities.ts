/**
 * The server capabilities an Exposition declares, the same in both eras (`initialize` in 2025
 * sessions, `server/discover` in 2026-07-28): only what the gateway does for it. List changes
 * and resource updates come from the change stream (subscriptions.ts).
 */
import type { CompiledExposition } from "@atrium/contract";
import { offersCompletions } from "./completion.ts";

export function serverCapabilities(exposition: CompiledExposition): Record<string, object> {
  return {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    ...(offersCompletions(exposition) ? { completions: {} } : {}),
  };
}
