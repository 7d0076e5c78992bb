import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { createPool } from '../db/pool';
import { broadcastOf, broadcastStream } from './broadcast';
import { changesStream, streamChanges, type CommittedChange, type ReplicationStream } from './change-source';
import { maintainMessagesPartitions } from './partitions';
import { serializerVersion } from './protocol';
import { SubscriptionRegistry, type Channel, type InterestedChannels } from './registry';
import { CheckFailedError, createRlsChecker, type RlsChecker, type VisibleRow } from './rls-check';
import { defaultMaxBufferedBytes, RealtimeSocket } from './socket';
import type { JwtKeys } from '../jwt-keys';
import { createTokenVerifier } from './tokens';
import { defaultMaxUnsentBytes, UnsentBudget } from './unsent-budget';
import { createVisibilityGate } from './visibility';

export interface RealtimeOptions {
  databaseUrl: string;
  jwtKeys: JwtKeys;
  /** Unsent bytes per socket before it is cut off as too slow (default `defaultMaxBufferedBytes`). */
  maxBufferedBytes?: number;
  /** Unsent bytes of all sockets together before the slowest are cut off (default `defaultMaxUnsentBytes`). */
  maxUnsentBytes?: number;
}

export interface RunningRealtime {
  close(): Promise<void>;
}

export const realtimePath = '/realtime/v1/websocket';

const replicationRetryMs = 1000;
const closeGraceMs = 1000;
const authorizationConnections = 2;
const gapAfterRestart = 'Realtime lost its connection to the database; changes may have been missed';

/**
 * Delivers committed transactions: the checks of each change start at once (on the checker's several
 * connections, so consecutive transactions are checked together), and deliveries leave in commit order,
 * each once other sessions can see its transaction (`visibility.ts`). `generation` counts replication streams: deliveries of an ended stream are abandoned, because every
 * channel is told of that gap anyway.
 */
function createDelivery(
  registry: SubscriptionRegistry,
  checker: RlsChecker,
  visibility: ReturnType<typeof createVisibilityGate>,
) {
  let inOrder = Promise.resolve();
  let generation = 0;

  function send(
    change: CommittedChange,
    interested: InterestedChannels['interested'],
    visible: Map<number, VisibleRow>,
  ) {
    const { schema, table } = change.relation;
    const perChannel = new Map<Channel, { ids: number[]; row: VisibleRow }>();
    for (const { channel, subscription, check } of interested) {
      const row = visible.get(check);
      // The channel may have closed while the database answered.
      if (!row || !registry.has(channel)) continue;
      const entry = perChannel.get(channel);
      if (entry) entry.ids.push(subscription.id);
      else perChannel.set(channel, { ids: [subscription.id], row });
    }
    const commitTimestamp = change.commitTime.toISOString();
    // Channels whose subscribers see the same columns get the same data, encoded once.
    const encoded = new Map<VisibleRow, string>();
    for (const [channel, { ids, row }] of perChannel) {
      let dataJson = encoded.get(row);
      if (dataJson === undefined) {
        dataJson = JSON.stringify({
          schema,
          table,
          commit_timestamp: commitTimestamp,
          type: change.type,
          columns: row.columns,
          ...(change.type === 'DELETE' ? {} : { record: row.record ?? {} }),
          ...(change.type === 'INSERT' ? {} : { old_record: row.old_record ?? {} }),
          errors: null,
        });
        encoded.set(row, dataJson);
      }
      channel.socket.sendChange(channel, ids, dataJson);
    }
  }

  function deliverTransaction(changes: CommittedChange[]): Promise<void> {
    const ofGeneration = generation;
    const stillWanted = () => generation === ofGeneration;
    let anyInterested = false;
    const checked = changes.map((change) => {
      const { checks, interested } = registry.interestedIn(change);
      if (interested.length > 0) anyInterested = true;
      const visible =
        interested.length === 0
          ? Promise.resolve(new Map<number, VisibleRow>())
          : checker.check(change, checks, stillWanted);
      // Settled here too, so a failure waiting for its turn is never an unhandled rejection.
      visible.catch(() => undefined);
      return { change, interested, visible };
    });
    const seenByReaders = anyInterested ? visibility.visible(changes[0]?.xid ?? 0) : Promise.resolve();
    inOrder = inOrder.then(async () => {
      await seenByReaders;
      for (const { change, interested, visible } of checked) {
        try {
          send(change, interested, await visible);
        } catch (error) {
          if (!(error instanceof CheckFailedError)) throw error;
          // Skipped on purpose: the subscribers it concerned re-read on rejoin.
          if (stillWanted()) {
            console.error(`realtime: ${error.message}`);
            registry.reportGap(
              new Set(interested.map(({ channel }) => channel)),
              'A change could not be checked; it may have been missed',
            );
          }
        }
      }
    });
    const done = inOrder;
    // The next transaction waits for this one's turn, not for its failure.
    inOrder = inOrder.catch(() => undefined);
    return done;
  }

  return {
    deliverTransaction,
    /** The stream ended: what it still had under way is abandoned. */
    streamEnded() {
      generation++;
    },
  };
}

/** The `x-` headers of the upgrade request, which Supabase Realtime gives the policies as `request.headers`. */
function xHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith('x-') && value !== undefined)
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function refuseUpgrade(socket: Duplex, status: string) {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Serves Supabase Realtime's `postgres_changes` on `/realtime/v1/websocket` of `server`: the Phoenix
 * protocol of @supabase/realtime-js (`socket.ts`), the joined channels (`registry.ts`), changes from
 * logical replication of `supabase_realtime` (`change-source.ts`), and row-level security checked as each
 * subscriber (`rls-check.ts`). The API key (`apikey` query parameter) must be a token signed with the
 * project's JWT keys, as on Supabase.
 */
export async function attachRealtime(server: Server, options: RealtimeOptions): Promise<RunningRealtime> {
  const checker = createRlsChecker(options.databaseUrl);
  const registry = new SubscriptionRegistry();
  const verifyToken = createTokenVerifier(options.jwtKeys);
  const visibility = createVisibilityGate(options.databaseUrl);
  const delivery = createDelivery(registry, checker, visibility);
  const sockets = new Set<RealtimeSocket>();
  const unsentBudget = new UnsentBudget(options.maxUnsentBytes ?? defaultMaxUnsentBytes);
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  // Join-time authorization of private channels (and the partitions of realtime.messages).
  const authorizationPool = createPool({
    connectionString: options.databaseUrl,
    max: authorizationConnections,
    application_name: 'coinvault-realtime-authorization',
  });
  let closing = false;

  const partitions = maintainMessagesPartitions(authorizationPool);

  /**
   * Keeps one replication stream going. Each (re)start makes a new temporary slot: changes committed in
   * between cannot be sent, so every channel the stream serves that joined before the new slot existed is
   * told so, and its client rejoins and re-reads.
   */
  function keepStreaming(
    stream: { publication: string; applicationName: string },
    onTransaction: (changes: CommittedChange[]) => Promise<void>,
    onEnded: () => void,
    serves: (channel: Channel) => boolean,
  ) {
    let running: ReplicationStream | null = null;
    let retryTimer: NodeJS.Timeout | undefined;
    let streamedBefore = false;
    async function start() {
      try {
        const joinedBefore = registry.all().filter(serves);
        running = await streamChanges(options.databaseUrl, stream, onTransaction, (error) => {
          console.error(`realtime: ${stream.publication} stopped, restarting`, error?.message);
          onEnded();
          running = null;
          scheduleStart();
        });
        if (streamedBefore) registry.reportGap(joinedBefore, gapAfterRestart);
        streamedBefore = true;
      } catch (error) {
        console.error(
          `realtime: could not stream ${stream.publication}`,
          error instanceof Error ? error.message : error,
        );
        scheduleStart();
      }
    }
    function scheduleStart() {
      if (closing) return;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(() => void start(), replicationRetryMs);
    }
    return {
      start,
      get running() {
        return running !== null;
      },
      async stop() {
        clearTimeout(retryTimer);
        await running?.close();
      },
    };
  }

  const changes = keepStreaming(
    changesStream,
    (transaction) => delivery.deliverTransaction(transaction),
    () => delivery.streamEnded(),
    (channel) => channel.subscriptions.length > 0,
  );
  let broadcastsInOrder = Promise.resolve();
  const broadcasts = keepStreaming(
    broadcastStream,
    (transaction) => {
      const messages = transaction.flatMap((change) => broadcastOf(change) ?? []);
      const seenByReaders = registry.topics.anyJoined(messages)
        ? visibility.visible(transaction[0]?.xid ?? 0)
        : Promise.resolve();
      // Transactions arrive as soon as they commit; their deliveries leave one after the other.
      broadcastsInOrder = broadcastsInOrder
        .then(() => seenByReaders)
        .then(() => registry.topics.deliver(messages));
      return broadcastsInOrder;
    },
    () => undefined,
    (channel) => channel.private || channel.subscriptions.length === 0,
  );

  async function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== realtimePath && url.pathname !== `${realtimePath}/`) {
      // Leave other paths to other upgrade handlers, if the server has any.
      if (server.listenerCount('upgrade') === 1) refuseUpgrade(socket, '404 Not Found');
      return;
    }
    const version = serializerVersion(url.searchParams.get('vsn'));
    if (!version) return refuseUpgrade(socket, '400 Bad Request');
    const apiKey = url.searchParams.get('apikey') ?? request.headers['x-api-key'];
    if (typeof apiKey !== 'string') return refuseUpgrade(socket, '403 Forbidden');
    try {
      await verifyToken(apiKey);
    } catch {
      return refuseUpgrade(socket, '403 Forbidden');
    }
    if (closing) return refuseUpgrade(socket, '503 Service Unavailable');
    wss.handleUpgrade(request, socket, head, (ws) => {
      const realtimeSocket = new RealtimeSocket(ws, socket, version, apiKey, xHeaders(request), {
        registry,
        checker,
        authorizationPool,
        verifyToken,
        maxBufferedBytes: options.maxBufferedBytes ?? defaultMaxBufferedBytes,
        unsentBudget,
      });
      sockets.add(realtimeSocket);
      ws.on('close', () => sockets.delete(realtimeSocket));
      ws.on('error', () => ws.terminate());
    });
  }
  const upgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    void onUpgrade(request, socket, head).catch(() => socket.destroy());
  };

  await Promise.all([changes.start(), broadcasts.start()]);
  if (!changes.running || !broadcasts.running) {
    closing = true;
    await Promise.all([changes.stop(), broadcasts.stop(), partitions.stop()]);
    await Promise.all([checker.close(), authorizationPool.end(), visibility.close()]);
    throw new Error('realtime: logical replication could not be started');
  }
  server.on('upgrade', upgradeListener);

  return {
    async close() {
      closing = true;
      server.off('upgrade', upgradeListener);
      for (const channel of registry.all()) registry.remove(channel);
      // Going away (1001): supabase-js reconnects and rejoins by itself when the server is back.
      const allClosed = new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const { ws } of sockets) ws.close(1001, 'server shutting down');
      await Promise.race([allClosed, new Promise((resolve) => setTimeout(resolve, closeGraceMs))]);
      for (const { ws } of sockets) ws.terminate();
      await allClosed;
      await Promise.all([changes.stop(), broadcasts.stop(), partitions.stop()]);
      await Promise.all([checker.close(), authorizationPool.end(), visibility.close()]);
    },
  };
}
