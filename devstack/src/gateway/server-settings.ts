import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListeningServer {
  server: Server;
  port: number;
  /** The gateway's own URL, on the loopback address. */
  url: string;
}

/**
 * The HTTP server with the connection handling of Supabase's API gateway (Kong/kong
 * kong/templates/kong_defaults.lua). A request (headers and body) must arrive within 30 s: a slow or
 * never-ending body is cut off. Idle keep-alive connections are kept 75 s, nginx's `keepalive_timeout`
 * that Kong leaves as it is (Node's 5 s closes connections that clients reuse at that moment: the
 * request is reset). The listen queue is Kong's `proxy_listen … backlog=16384` (the kernel caps it at
 * `net.core.somaxconn`): Node's 511 overflowed under a burst of new connections, and the kernel resets
 * what it cannot queue.
 */
export async function listenAsKong({
  port,
  host,
}: {
  port?: number;
  host?: string;
}): Promise<ListeningServer> {
  const server = createServer({ requestTimeout: 30_000, headersTimeout: 10_000, keepAliveTimeout: 75_000 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: port ?? 0, host: host ?? '127.0.0.1', backlog: 16_384 }, () => resolve());
  });
  const listening = (server.address() as AddressInfo).port;
  return { server, port: listening, url: `http://127.0.0.1:${listening}` };
}
