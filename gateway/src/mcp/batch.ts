/**
 * JSON-RPC batches (MCP 2025-03-26 only). A batch holds at most `maxSize` messages — a larger
 * one is refused whole, before any of it runs — and its messages are answered BATCH_CONCURRENCY
 * at a time, all within one deadline: the plan's backend timeout, counted from the batch's
 * arrival. A call the deadline leaves no time for gets the gateway's 504 result at once.
 */
import { handleLegacy, type LegacyContext } from "./legacy.ts";
import {
  ERROR,
  errorResponse,
  isJsonRpcRequest,
  isResponseOrNotificationLike,
  McpError,
  resultResponse,
} from "./protocol.ts";
import { SerializedResult } from "./serialized.ts";
import type { Session } from "./sessions.ts";

/** Messages of one batch in flight at once. */
export const BATCH_CONCURRENCY = 4;

/** The answers to a batch's requests, in its order (notifications and responses get none). */
export async function answerBatch(
  messages: unknown[],
  session: Session,
  context: LegacyContext,
  maxSize: number,
): Promise<unknown[]> {
  if (messages.length > maxSize) {
    throw new McpError(
      ERROR.invalidRequest,
      `A JSON-RPC batch may hold at most ${maxSize} messages; this one has ${messages.length}: send them in smaller batches`,
      400,
    );
  }
  const scoped = { ...context, deadline: performance.now() + context.served.exposition.plan.backendTimeoutMs };
  const answers: unknown[] = new Array(messages.length);
  let next = 0;
  const worker = async () => {
    while (next < messages.length) {
      const index = next++;
      answers[index] = await answerOne(messages[index], session, scoped);
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, messages.length) }, worker));
  return answers.filter((answer) => answer !== undefined);
}

async function answerOne(message: unknown, session: Session, context: LegacyContext): Promise<unknown> {
  if (!isJsonRpcRequest(message)) {
    return isResponseOrNotificationLike(message)
      ? undefined
      : errorResponse(null, ERROR.invalidRequest, "Invalid Request");
  }
  if (message.id === undefined) return undefined;
  try {
    const result = await handleLegacy(message, session, context);
    // A batch is one JSON array: a pre-serialized result goes back to being a value here.
    return resultResponse(message.id, result instanceof SerializedResult ? JSON.parse(result.json) : result);
  } catch (error) {
    if (!(error instanceof McpError)) throw error;
    return errorResponse(message.id, error.code, error.message, error.data);
  }
}
