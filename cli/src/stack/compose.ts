/**
 * The Compose file of a release: the control plane (embedded database in a volume) and one gateway,
 * from the images hack/images/build.sh builds (`localhost/atrium/<component>:<release>`), read-only,
 * published on loopback only, the control plane serving the web UI with `--ui`. `atrium run --compose` writes it; `atrium run --release` writes it
 * and starts it (release.ts). The admin password of a first start and the gateway's API token pass
 * through from the compose command's environment, so the file itself holds only the session key.
 */
import { createHash, randomBytes } from "node:crypto";
import { IMAGE_UI_DIR } from "@atrium/ui";
import { stringify } from "yaml";
import { defaultStackDir } from "./paths.ts";

/** Where `hack/images/build.sh` puts the images. */
export const IMAGE_REPOSITORY = "localhost/atrium";

/**
 * Compose's project name, which prefixes the containers and volumes (`atrium_control-plane-data`):
 * `atrium` for the default stack folder, `atrium-<hash>` for another ATRIUM_STACK_DIR, so two
 * stack folders never share volumes.
 */
export function composeProject(stackDir: string): string {
  return stackDir === defaultStackDir()
    ? "atrium"
    : `atrium-${createHash("sha256").update(stackDir).digest("hex").slice(0, 8)}`;
}

export const releaseImage = (component: "control-plane" | "gateway", release: string) =>
  `${IMAGE_REPOSITORY}/${component}:${release}`;

export interface ComposePorts {
  controlPlane: number;
  gateway: number;
}

/**
 * With `ui`, the control plane serves the bundle its image carries, and the playground may call the
 * gateway: its origin in the UI's CSP, the UI's origins (both names of loopback) in the gateway's CORS.
 */
export function composeFile(release: string, ports: ComposePorts, project: string, ui = false): string {
  const sessionKey = randomBytes(32).toString("base64");
  const uiEnvironment = {
    ATRIUM_UI_DIR: IMAGE_UI_DIR,
    ATRIUM_UI_GATEWAY_ORIGINS: `http://localhost:${ports.gateway}`,
  };
  const gatewayCors = {
    ATRIUM_GATEWAY_CORS_ORIGINS: `http://127.0.0.1:${ports.controlPlane},http://localhost:${ports.controlPlane}`,
  };
  const document = {
    name: project,
    services: {
      "control-plane": {
        image: releaseImage("control-plane", release),
        read_only: true,
        environment: {
          // Passed through from the compose command's environment (unset stays unset): the first
          // start's admin password, which `atrium run --release` chooses.
          ATRIUM_ADMIN_PASSWORD: null,
          ...(ui ? uiEnvironment : {}),
        },
        volumes: ["control-plane-data:/var/lib/atrium"],
        ports: [`127.0.0.1:${ports.controlPlane}:5555`],
      },
      gateway: {
        image: releaseImage("gateway", release),
        read_only: true,
        depends_on: ["control-plane"],
        environment: {
          ATRIUM_CONTROL_PLANE_URL: "http://control-plane:5555",
          // Passed through too: an API token of role gateway, which `atrium run --release` creates.
          ATRIUM_CONTROL_PLANE_TOKEN: null,
          ATRIUM_GATEWAY_ID: "gateway-1",
          ATRIUM_GATEWAY_FQDNS: `localhost:${ports.gateway}`,
          ATRIUM_GATEWAY_LABELS: "env=local",
          ATRIUM_GATEWAY_SESSION_KEY: sessionKey,
          ...(ui ? gatewayCors : {}),
        },
        volumes: ["gateway-cache:/var/lib/atrium"],
        ports: [`127.0.0.1:${ports.gateway}:7777`],
      },
    },
    volumes: { "control-plane-data": {}, "gateway-cache": {} },
  };
  return `# Atrium ${release}, written by \`atrium\`. Holds the gateways' session key: keep it private.\n${stringify(document)}`;
}
