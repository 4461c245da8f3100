/**
 * Free TCP ports on 127.0.0.1, picked by the kernel (bind port 0) rather than guessed, so parallel
 * test runs on one machine do not collide.
 */
import { type AddressInfo, connect, createServer, type Server } from "node:net";

/** Returns `count` distinct free ports. They are released before returning: bind them soon. */
export async function freePorts(count: number): Promise<number[]> {
  // Every listener stays open until all are bound, so one call never hands out the same port twice.
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", resolve);
      });
    }
    return servers.map((server) => (server.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` (e.g. to check that a stop closed it). */
export function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
