/** The kubeconfig of a test environment: one cluster, one user with a bearer token. */

/** JSON is valid YAML: kubectl, helm and client-node all read this kubeconfig. */
export function kubeconfigJson(server: string, caPem: string, token: string, name = "kube-testenv"): string {
  const config = {
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name,
        cluster: { server, "certificate-authority-data": Buffer.from(caPem).toString("base64") },
      },
    ],
    users: [{ name: "admin", user: { token } }],
    contexts: [{ name, context: { cluster: name, user: "admin" } }],
    "current-context": name,
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
