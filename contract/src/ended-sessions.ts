/**
 * Sessions clients ended (2025-era `DELETE`): a gateway reports them, the control plane records
 * them and the change stream hands them to every gateway serving the Exposition, which refuses
 * the session until it expires.
 */
import { z } from "zod";

/** 2025-era sessions last a day after they are issued; an ended one needs refusing no longer. */
export const SESSION_TTL_SECONDS = 24 * 3600;

/** SHA-256 of a 2025-era session id: the id itself is a bearer credential and never leaves the gateway. */
export const sessionHash = z
  .string()
  .regex(/^[0-9a-f]{64}$/, { message: "must be the SHA-256 of the session id, as 64 lowercase hex digits" });

/** A session a client ended (DELETE): every gateway serving its Exposition refuses it until it expires. */
export const endedSession = z.object({
  expositionId: z.uuid({ message: "must be an Exposition id (a UUID)" }),
  sessionHash,
  expiresAt: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-01-31T12:00:00Z" }),
});
export type EndedSession = z.output<typeof endedSession>;
/**
 * At most this many sessions per Exposition and minute are recorded: past it, a flood of
 * (initialize, DELETE) cannot grow every gateway's memory and the outbox. What is dropped stays
 * refused by the gateway that ended it, and expires with the session anyway.
 */
export const ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE = 120;
export const ENDED_SESSIONS_REPORT_MAX = 100;
/** What a gateway reports at once (gateways that predate batches send one bare `endedSession`). */
export const endedSessionsReport = z.object({
  endedSessions: z.array(endedSession).min(1).max(ENDED_SESSIONS_REPORT_MAX),
});
