/**
 * In-cluster DNS: CoreDNS as the usual `kube-dns` Service and Deployment in kube-system, serving
 * cluster.local from the API server. It forwards nothing: a name outside the cluster does not
 * resolve, so no query leaves the machine.
 */
import { CLUSTER_DOMAIN, DNS_SERVICE_IP } from "./layout.ts";

const COREFILE = `.:53 {
    errors
    health {
        lameduck 2s
    }
    ready
    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    cache 30
    loadbalance
}
`;

const labels = { "k8s-app": "kube-dns" };
const metadata = (name: string) => ({ name, namespace: "kube-system", labels });

/** The objects to apply. */
export function corednsManifests(image: string): object[] {
  return [
    { apiVersion: "v1", kind: "ServiceAccount", metadata: metadata("coredns") },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRole",
      metadata: { name: "system:coredns" },
      rules: [
        { apiGroups: [""], resources: ["endpoints", "services", "pods", "namespaces"], verbs: ["list", "watch"] },
        { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], verbs: ["list", "watch"] },
      ],
    },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: { name: "system:coredns" },
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:coredns" },
      subjects: [{ kind: "ServiceAccount", name: "coredns", namespace: "kube-system" }],
    },
    { apiVersion: "v1", kind: "ConfigMap", metadata: metadata("coredns"), data: { Corefile: COREFILE } },
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: metadata("coredns"),
      spec: {
        replicas: 1,
        selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            serviceAccountName: "coredns",
            dnsPolicy: "Default",
            priorityClassName: "system-cluster-critical",
            containers: [
              {
                name: "coredns",
                image,
                imagePullPolicy: "Never",
                args: ["-conf", "/etc/coredns/Corefile"],
                ports: [
                  { name: "dns", containerPort: 53, protocol: "UDP" },
                  { name: "dns-tcp", containerPort: 53, protocol: "TCP" },
                ],
                readinessProbe: { httpGet: { path: "/ready", port: 8181 }, periodSeconds: 2 },
                livenessProbe: { httpGet: { path: "/health", port: 8080 }, periodSeconds: 10 },
                volumeMounts: [{ name: "config", mountPath: "/etc/coredns", readOnly: true }],
              },
            ],
            volumes: [{ name: "config", configMap: { name: "coredns" } }],
          },
        },
      },
    },
    {
      apiVersion: "v1",
      kind: "Service",
      metadata: metadata("kube-dns"),
      spec: {
        selector: labels,
        clusterIP: DNS_SERVICE_IP,
        ports: [
          { name: "dns", port: 53, protocol: "UDP" },
          { name: "dns-tcp", port: 53, protocol: "TCP" },
        ],
      },
    },
  ];
}
