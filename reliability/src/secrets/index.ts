/** Test support for "secrets never logged": the ledger of a run's secrets and where test components log. */
export { RUN_DIR_VARIABLE, recordCredentialsIn, recordSecret, recordSecretFields, testRunDir } from "./ledger.ts";
export {
  appendToLog,
  CAPTURED_LOG_LEVEL,
  captureOutput,
  keepLogs,
  testLogFile,
  testLogging,
  testLogLevel,
} from "./logs.ts";
