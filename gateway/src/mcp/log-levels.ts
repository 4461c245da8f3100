/**
 * MCP log levels (the RFC 5424 severities, least severe first), and the level each 2025 session
 * asked for with `logging/setLevel`. A 2026-07-28 request names its own level in `_meta`
 * (`io.modelcontextprotocol/logLevel`), so only the 2025 era keeps one.
 *
 * Sessions are signed tokens that any replica verifies (sessions.ts); a level is the one piece of
 * session state they do not carry, and is held by the replica that received the `logging/setLevel`.
 * Behind a balancer that spreads one session's requests over several replicas, calls served by
 * another replica send no log messages until the client sets the level there too.
 */

export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}

/** Whether a message at `level` reaches a client that asked for `threshold` and above. */
export function reaches(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** Sessions whose level this replica remembers: beyond it, the longest unchanged is forgotten. */
export const MAX_SESSION_LOG_LEVELS = 10_000;

/** The level of each 2025 session that set one on this replica, by session id. */
export class SessionLogLevels {
  private readonly levels = new Map<string, LogLevel>();
  private readonly max: number;

  constructor(max = MAX_SESSION_LOG_LEVELS) {
    this.max = max;
  }

  set(sessionId: string, level: LogLevel): void {
    // Re-inserted at the end: the map's order is the order of last change.
    this.levels.delete(sessionId);
    this.levels.set(sessionId, level);
    if (this.levels.size > this.max) this.levels.delete(this.levels.keys().next().value as string);
  }

  /** The session's level; undefined when it set none (no lookup at all while no session has one). */
  get(sessionId: string): LogLevel | undefined {
    return this.levels.size === 0 ? undefined : this.levels.get(sessionId);
  }

  /** An ended session's level goes with it. */
  forget(sessionId: string): void {
    this.levels.delete(sessionId);
  }
}
