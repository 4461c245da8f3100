/**
 * The control plane's REST API (`/api/v1`) as a contract: request bodies, the views each route
 * answers and the problem document. The control plane's routes validate and serialize with
 * these schemas (so its OpenAPI document is generated from them); the CLI, the operator and
 * the gateway read answers with them through `…/rest-client`.
 */
export {
  type CreatedToken,
  createdToken,
  fqdnPattern,
  type NewToken,
  newToken,
  TOKEN_ROLES,
  type TokenRole,
  type TokenView,
  tokenView,
} from "./api-tokens.ts";
export {
  type PlanBody,
  type PlanView,
  type PlanWithKey,
  planBody,
  planView,
  planWithKey,
} from "./configuration-plans.ts";
export {
  ELICITATION_MAX_TTL_SECONDS,
  type ElicitationView,
  elicitationIdHash,
  elicitationParams,
  elicitationView,
  type NewElicitation,
  newElicitation,
  PENDING_ELICITATIONS_PER_EXPOSITION,
  PENDING_ELICITATIONS_PER_USER,
} from "./elicitations.ts";
export {
  ELICITED_CREDENTIAL_MAX_CIPHERTEXT,
  ELICITED_CREDENTIAL_WRITES_PER_MINUTE,
  ELICITED_CREDENTIALS_PER_EXPOSITION,
  type ElicitedCredentialBody,
  type ElicitedCredentialView,
  elicitedCredentialBody,
  elicitedCredentialParams,
  elicitedCredentialView,
  principalDigest,
} from "./elicited-credentials.ts";
export {
  type ExpositionBody,
  type ExpositionProblemView,
  type ExpositionToolView,
  type ExpositionView,
  expositionBody,
  expositionProblemView,
  expositionToolsView,
  expositionToolView,
  expositionView,
} from "./expositions.ts";
export {
  type GatewayGroupBody,
  type GatewayGroupView,
  gatewayGroupBody,
  gatewayGroupParams,
  gatewayGroupView,
} from "./gateway-groups.ts";
export {
  GATEWAY_HEALTH,
  type GatewayView,
  gatewayDeregisterQuery,
  gatewayHealthBody,
  gatewayParams,
  gatewayView,
} from "./gateways.ts";
export { type InfoView, infoView } from "./info.ts";
export { type LoginAnswer, loginAnswer, loginBody } from "./login.ts";
export {
  createdOrganization,
  newUser,
  organizationBody,
  organizationName,
  organizationView,
  USER_ROLES,
  type UserRole,
  userRoleBody,
  userView,
} from "./organizations.ts";
export {
  type FieldError,
  fieldError,
  type ProblemDocument,
  problemDocument,
  type SourceLocation,
  sourceLocation,
} from "./problem.ts";
export { gatewayGroupId, listOf, MAX_SERIAL_ID, recordName, timestamps, uuidParams } from "./records.ts";
export {
  type ReencryptReport,
  reencryptReport,
  type SecretBody,
  type SecretView,
  secretBody,
  secretValueBody,
  secretView,
} from "./secrets.ts";
export {
  type ArtifactKind,
  artifactRecords,
  customToolsRecord,
  promptsRecord,
  resourcesRecord,
} from "./service-artifacts.ts";
export {
  type ImportWarning,
  type ImportWarningCode,
  importWarning,
  type OperationSummary,
  operationSummary,
  type ServiceBody,
  type ServiceDetail,
  type ServiceView,
  serviceBody,
  serviceDetail,
  serviceImportQuery,
  serviceView,
} from "./services.ts";
