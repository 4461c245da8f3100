/**
 * @atrium/contract — what the control plane and its gateways exchange, defined once: the change
 * stream's events and compiled Expositions, the normalized operation they carry, a gateway's
 * registration, the sessions clients ended and the problems a gateway reports. It holds no
 * storage or server code, so a gateway depending on it carries no database code.
 *
 * Beside it: `…/backoff` (the retry pacing gateways and the operator share), `…/json-schema`
 * (where JSON Schema nests subschemas), `…/json-depth` (the nesting scan both servers run before
 * parsing), `…/listener` (their limits on slow and greedy clients), `…/rest` (the control plane's
 * REST API: bodies, views, the problem document) and `…/rest-client` (the one client of that API).
 */
export {
  ENDED_SESSIONS_PER_EXPOSITION_PER_MINUTE,
  ENDED_SESSIONS_REPORT_MAX,
  type EndedSession,
  endedSession,
  endedSessionsReport,
  SESSION_TTL_SECONDS,
  sessionHash,
} from "./ended-sessions.ts";
export {
  GraphqlCall,
  GrpcCall,
  HttpMethod,
  JsonSchemaObject,
  NormalizedOperation,
  NormalizedParameter,
  NormalizedRequestBody,
  NormalizedResponse,
  ParameterLocation,
  ParameterStyle,
} from "./operation.ts";
export {
  type ExpositionProblem,
  expositionProblem,
  gatewayProblemsReport,
  PROBLEM_MESSAGE_MAX,
} from "./problems.ts";
export { fqdn, gatewayId, gatewayRegistration, instanceId, registrationAnswer } from "./registration.ts";
export {
  type CompiledExposition,
  changesEnvelope,
  changesEvent,
  compiledExposition,
  type PlanSettings,
  planBackendSecret,
  planBackendTls,
  planSettings,
  type ResolvedBackendTls,
  resolvedBackendSecret,
  resolvedBackendTls,
  snapshotEnvelope,
  snapshotEvent,
  storedPlanSettings,
} from "./stream.ts";
