/**
 * The logger the operator writes to: the subset of pino's interface it uses, so the health
 * server's fastify logger (pino) serves as is and tests can pass a silent one.
 */
export interface Log {
  debug(fields: object, message: string): void;
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const silentLog: Log = {
  debug() {},
  info() {},
  warn() {},
  error() {},
};
