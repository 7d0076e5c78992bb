import { once } from 'node:events';
import net from 'node:net';

/**
 * A server speaking just enough of Postgres's protocol to answer `answers` simple queries, and then to
 * be terminated (`pg_terminate_backend`, a restart) in the very write that answers the last one. The
 * client reads the answer and the FATAL error in one chunk: before the code awaiting the answer runs
 * again, the connection has already died. A real Postgres does this only now and then, on a loaded machine.
 */
export async function startPostgresEndingConnections({ answers }: { answers: number }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let received = Buffer.alloc(0);
    let startedUp = false;
    let answered = 0;
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        // The startup message has no type byte; every later message has one.
        const header = startedUp ? 5 : 4;
        if (received.length < header) return;
        const length = received.readInt32BE(startedUp ? 1 : 0) + (startedUp ? 1 : 0);
        if (received.length < length) return;
        const type = startedUp ? String.fromCharCode(received[0] ?? 0) : 'startup';
        received = received.subarray(length);
        if (type === 'startup') {
          startedUp = true;
          reply(socket, answers === 0, [authenticationOk, readyForQuery]);
        } else if (type === 'Q') {
          answered++;
          reply(socket, answered >= answers, [commandComplete('SELECT 0'), readyForQuery]);
        } else if (type === 'X') {
          socket.end();
        }
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function reply(socket: net.Socket, thenTerminate: boolean, messages: Buffer[]) {
  if (!thenTerminate) return void socket.write(Buffer.concat(messages));
  socket.end(Buffer.concat([...messages, terminatedByAdministrator]));
}

function message(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0);
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const authenticationOk = message('R', Buffer.from([0, 0, 0, 0]));
const readyForQuery = message('Z', Buffer.from('I'));
const commandComplete = (tag: string) => message('C', Buffer.from(`${tag}\0`));
const terminatedByAdministrator = message(
  'E',
  Buffer.from(
    ['SFATAL', 'VFATAL', 'C57P01', 'Mterminating connection due to administrator command']
      .map((field) => `${field}\0`)
      .join('') + '\0',
  ),
);
