/**
 * Persistent volumes: the default StorageClass `standard` (kind's name too), provisioned by
 * kube-controller-manager's built-in host-path provisioner (--enable-hostpath-provisioner, a
 * one-node test feature). It creates each volume as /tmp/hostpath_pv/<uid> on the host, a path
 * fixed in Kubernetes; teardown.sh removes that folder with the cluster.
 */

export function storageClassManifest(): object {
  return {
    apiVersion: "storage.k8s.io/v1",
    kind: "StorageClass",
    metadata: {
      name: "standard",
      annotations: { "storageclass.kubernetes.io/is-default-class": "true" },
    },
    provisioner: "kubernetes.io/host-path",
    reclaimPolicy: "Delete",
    volumeBindingMode: "Immediate",
  };
}
