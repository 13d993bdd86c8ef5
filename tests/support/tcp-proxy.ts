/**
 * A TCP proxy on 127.0.0.1 for outage tests: forwards every connection to a target (PostgreSQL) and
 * can black-hole it: while paused nothing is forwarded either way and new connections are accepted but
 * not connected onward, as when a network path or a database server stops answering without closing
 * anything. Resuming lets the held bytes through.
 */
import { type AddressInfo, connect, createServer, type Server, type Socket } from "node:net";

export interface TcpProxy {
  port: number;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  let paused = false;
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const held: Socket[] = [];
  const sockets = new Set<Socket>();

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("error", () => socket.destroy());
    socket.on("close", () => sockets.delete(socket));
  };

  const link = (client: Socket) => {
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    const pair = { client, upstream };
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", end);
    upstream.on("close", end);
  };

  const server: Server = createServer((client) => {
    track(client);
    if (paused) {
      client.pause();
      held.push(client);
    } else {
      link(client);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    port: (server.address() as AddressInfo).port,
    pause() {
      paused = true;
      for (const { client, upstream } of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    resume() {
      paused = false;
      for (const { client, upstream } of pairs) {
        client.pipe(upstream);
        upstream.pipe(client);
      }
      for (const client of held.splice(0)) if (!client.destroyed) link(client);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
