/**
 * `atrium run --compose`: for people with Docker, a Compose file running the control plane on
 * PostgreSQL and one gateway at a release, instead of local processes.
 */
import { randomBytes } from "node:crypto";
import { stringify } from "yaml";

export function composeFile(release: string): string {
  const key = randomBytes(32).toString("base64");
  const sessionKey = randomBytes(32).toString("base64");
  const document = {
    name: "atrium",
    services: {
      postgres: {
        image: "postgres:17",
        environment: { POSTGRES_USER: "atrium", POSTGRES_PASSWORD: "atrium", POSTGRES_DB: "atrium" },
        volumes: ["atrium-db:/var/lib/postgresql/data"],
        healthcheck: { test: ["CMD", "pg_isready", "-U", "atrium"], interval: "2s", retries: 30 },
      },
      "control-plane": {
        image: `ghcr.io/atrium-dev/control-plane:${release}`,
        depends_on: { postgres: { condition: "service_healthy" } },
        environment: {
          ATRIUM_DATABASE_URL: "postgres://atrium:atrium@postgres:5432/atrium",
          ATRIUM_ENCRYPTION_KEYS: `v1=${key}`,
          ATRIUM_ENCRYPTION_ACTIVE_KEY_ID: "v1",
        },
        ports: ["5555:5555"],
      },
      gateway: {
        image: `ghcr.io/atrium-dev/gateway:${release}`,
        depends_on: ["control-plane"],
        environment: {
          ATRIUM_CONTROL_PLANE_URL: "http://control-plane:5555",
          ATRIUM_CONTROL_PLANE_TOKEN:
            "${ATRIUM_GATEWAY_TOKEN:?create one with: atrium api-token create gateway --validity-days 365}",
          ATRIUM_GATEWAY_ID: "gateway-1",
          ATRIUM_GATEWAY_FQDNS: "localhost:7777",
          ATRIUM_GATEWAY_LABELS: "env=local",
          ATRIUM_GATEWAY_SESSION_KEY: sessionKey,
        },
        ports: ["7777:7777"],
      },
    },
    volumes: { "atrium-db": {} },
  };
  return `# Atrium ${release}, written by \`atrium run --compose\`. Holds generated keys: keep it private.\n${stringify(document)}`;
}
