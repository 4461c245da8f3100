/**
 * A ConfigurationPlan's gRPC settings, for a plan on a Service of kind grpc (the control plane
 * refuses them on any other): how many messages a server-streaming method's tool collects. The
 * gateway enforces it on each call (gateway/src/grpc/call.ts).
 */
import { z } from "zod";

export const DEFAULT_MAX_STREAM_MESSAGES = 100;
export const MAX_STREAM_MESSAGES = 10_000;

export const grpcPlanSettings = z
  .object({
    maxStreamMessages: z
      .number()
      .int()
      .min(1)
      .max(MAX_STREAM_MESSAGES)
      .default(DEFAULT_MAX_STREAM_MESSAGES)
      .describe(
        "The most messages a server-streaming method's tool collects (1 to 10000, 100 by default): the result is " +
          "{messages, truncated}, and the stream is cancelled at one message past the limit, with truncated true.",
      ),
  })
  .describe("Only on a plan whose Service is of kind grpc: how the gateway calls its methods.");
