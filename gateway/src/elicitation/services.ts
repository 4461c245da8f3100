/**
 * The elicited-credential flow's parts on one gateway, built when it has a cluster key
 * (ATRIUM_GATEWAY_CLUSTER_KEY_FILE): the keyring, and the credential store and pending
 * elicitations, which reach the control plane with the gateway's token on a pool of their own.
 */
import { ControlPlaneClient } from "../control-plane-client.ts";
import { BackendGrants } from "./backend-grant.ts";
import { ClusterKeyring } from "./cluster-keys.ts";
import { ElicitedCredentialStore } from "./credential-store.ts";
import type { ElicitationServices } from "./flow.ts";
import { PendingElicitations } from "./pending-elicitations.ts";

export function elicitationServices(
  clusterKey: Buffer,
  controlPlane: { controlPlaneUrl: string; controlPlaneToken: string },
): { services: ElicitationServices; close(): Promise<void> } {
  const client = new ControlPlaneClient(controlPlane.controlPlaneUrl, controlPlane.controlPlaneToken);
  const keyring = new ClusterKeyring([clusterKey]);
  return {
    services: {
      keyring,
      store: new ElicitedCredentialStore(client.rest, keyring),
      pending: new PendingElicitations(client.rest),
      grants: new BackendGrants(keyring),
    },
    close: () => client.close(),
  };
}
