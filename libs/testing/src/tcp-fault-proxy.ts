import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a server (PostgreSQL for the outage tests): processes connect to
 * `port` instead of the server's. `cut()` is the outage — every open connection is reset and
 * new ones are refused at once (accepted and reset, as a server that is down but whose host
 * answers) — until `restore()`.
 */
export interface TcpFaultProxy {
  port: number;
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  cut(): void;
  restore(): void;
  /** Connections reset or refused since the proxy started. */
  readonly refused: number;
  close(): Promise<void>;
}

export async function tcpFaultProxy(target: { host: string; port: number }): Promise<TcpFaultProxy> {
  const open = new Set<Socket>();
  let down = false;
  let refused = 0;
  const server: Server = createServer((client) => {
    if (down) {
      refused += 1;
      client.resetAndDestroy();
      return;
    }
    const upstream = createConnection(target);
    const pair = [client, upstream];
    for (const socket of pair) {
      open.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open.delete(socket);
        for (const other of pair) if (!other.destroyed) other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('tcp fault proxy: no port');
  return {
    port: address.port,
    through(url) {
      const parsed = new URL(url);
      parsed.host = `127.0.0.1:${address.port}`;
      return parsed.toString();
    },
    cut() {
      down = true;
      for (const socket of open) {
        refused += 1;
        socket.resetAndDestroy();
      }
    },
    restore() {
      down = false;
    },
    get refused() {
      return refused;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}
