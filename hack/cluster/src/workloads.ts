/**
 * Small workloads on the busybox image that tests use to prove a cluster works: an `echo`
 * Deployment (each pod answers HTTP with its own name) behind a ClusterIP Service, and a client
 * pod that resolves the Service's name and calls it. Lists for `kubectl apply -f -`.
 */

/** The echo Deployment (2 replicas, port 8080) and its Service `echo` (port 80). */
export function echoWorkload(namespace: string, image: string): object {
  const labels = { app: "echo" };
  return {
    apiVersion: "v1",
    kind: "List",
    items: [
      {
        apiVersion: "apps/v1",
        kind: "Deployment",
        metadata: { name: "echo", namespace },
        spec: {
          replicas: 2,
          selector: { matchLabels: labels },
          template: {
            metadata: { labels },
            spec: {
              containers: [
                {
                  name: "echo",
                  image,
                  imagePullPolicy: "Never",
                  command: [
                    ...["/bin/busybox", "sh", "-c"],
                    "/bin/busybox mkdir -p /www && /bin/busybox hostname > /www/index.html && exec /bin/busybox httpd -f -p 8080 -h /www",
                  ],
                  ports: [{ containerPort: 8080 }],
                  readinessProbe: { httpGet: { path: "/", port: 8080 }, periodSeconds: 1 },
                },
              ],
            },
          },
        },
      },
      {
        apiVersion: "v1",
        kind: "Service",
        metadata: { name: "echo", namespace },
        spec: { selector: labels, ports: [{ port: 80, targetPort: 8080 }] },
      },
    ],
  };
}

/**
 * A pod `client` that runs `nslookup <host>`, then calls http://<host>/ `calls` times, a tenth of
 * a second apart (spread over several of kube-proxy's syncs), printing `answer: <body>` for each.
 * nc, not wget: Debian's static busybox wget crashes when it resolves a name (glibc NSS in a
 * static binary).
 */
export function clientPod(namespace: string, image: string, host: string, calls: number): object {
  const request = `printf 'GET / HTTP/1.0\\r\\n\\r\\n' | /bin/busybox nc -w 5 ${host} 80 | /bin/busybox tail -n 1`;
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { name: "client", namespace },
    spec: {
      restartPolicy: "Never",
      containers: [
        {
          name: "client",
          image,
          imagePullPolicy: "Never",
          command: [
            ...["/bin/busybox", "sh", "-c"],
            `/bin/busybox nslookup ${host} && for i in $(/bin/busybox seq ${calls}); do echo "answer: $(${request})"; /bin/busybox sleep 0.1; done`,
          ],
        },
      ],
    },
  };
}
