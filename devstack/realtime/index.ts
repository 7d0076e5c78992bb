import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import pg from 'pg';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import {
  decodeMessage,
  encodeMessage,
  serializerVersion,
  type PhoenixMessage,
  type SerializerVersion,
} from './protocol';
import { streamChanges, type CommittedChange, type ReplicationStream } from './replication';
import {
  certainlyFilteredOut,
  concerns,
  parseSubscription,
  type ColumnFilter,
  type PostgresChangesParams,
} from './subscriptions';
import { createTokenVerifier, TokenError, type RealtimeClaims } from './tokens';

export interface RealtimeOptions {
  databaseUrl: string;
  jwtSecret: string;
}

export interface RunningRealtime {
  close(): Promise<void>;
}

export const realtimePath = '/realtime/v1/websocket';

interface Subscription {
  id: number;
  params: PostgresChangesParams;
  /** null when the params were refused: the subscription then never matches. */
  filters: ColumnFilter[] | null;
}

interface Channel {
  socket: RealtimeSocket;
  topic: string;
  joinRef: string | null;
  token: string;
  claims: RealtimeClaims;
  subscriptions: Subscription[];
  expiryTimer?: NodeJS.Timeout;
}

interface VisibleRow {
  check_index: number;
  record: Record<string, unknown> | null;
  old_record: Record<string, unknown> | null;
  columns: { name: string; type: string }[];
}

// Timers beyond this are re-armed, as Supabase Realtime re-confirms a token at least hourly.
const maxTimerMs = 60 * 60 * 1000;
const replicationRetryMs = 1000;
const closeGraceMs = 1000;

function ok(response: unknown = {}) {
  return { status: 'ok', response };
}
function refused(reason: string) {
  return { status: 'error', response: { reason } };
}
function subTopic(topic: string) {
  return topic.replace(/^realtime:/, '');
}
function quoteIdentifier(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

class RealtimeSocket {
  readonly channels = new Map<string, Channel>();
  private queue = Promise.resolve();

  constructor(
    readonly ws: WebSocket,
    readonly version: SerializerVersion,
    readonly apiKey: string,
    private readonly hub: RealtimeHub,
  ) {
    ws.on('message', (data: RawData, isBinary: boolean) => {
      // Binary frames carry broadcast pushes, which the local stack does not serve.
      if (isBinary) return;
      const message = decodeMessage(version, data.toString());
      if (!message) return;
      // One message at a time per socket, so a join is settled before the next message is read.
      this.queue = this.queue
        .then(() => this.handle(message))
        .catch((error: unknown) => {
          console.error('realtime: message handling failed', error);
        });
    });
    ws.on('close', () => {
      for (const channel of this.channels.values()) this.hub.forget(channel);
      this.channels.clear();
    });
  }

  send(message: PhoenixMessage) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(encodeMessage(this.version, message));
  }

  reply(message: PhoenixMessage, payload: unknown) {
    this.send({
      joinRef: message.joinRef,
      ref: message.ref,
      topic: message.topic,
      event: 'phx_reply',
      payload,
    });
  }

  pushSystem(channel: Channel, extension: string, status: 'ok' | 'error', text: string) {
    this.send({
      joinRef: channel.joinRef,
      ref: null,
      topic: channel.topic,
      event: 'system',
      payload: { extension, status, message: text, channel: subTopic(channel.topic) },
    });
  }

  /** Ends a channel from the server side: the client sees `phx_close` and does not rejoin. */
  closeChannel(channel: Channel) {
    this.send({
      joinRef: channel.joinRef,
      ref: channel.joinRef,
      topic: channel.topic,
      event: 'phx_close',
      payload: {},
    });
    this.channels.delete(channel.topic);
    this.hub.forget(channel);
  }

  /** As Supabase Realtime's shutdown: a `system` error saying why, then the channel closes. */
  shutdown(channel: Channel, reason: string) {
    this.pushSystem(channel, 'system', 'error', reason);
    this.closeChannel(channel);
  }

  private async handle(message: PhoenixMessage) {
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') this.reply(message, ok());
      return;
    }
    if (message.event === 'phx_join') return this.join(message);
    const channel = this.channels.get(message.topic);
    if (!channel) {
      this.reply(message, refused('unmatched topic'));
      return;
    }
    switch (message.event) {
      case 'phx_leave':
        this.reply(message, ok());
        this.closeChannel(channel);
        return;
      case 'access_token':
        return this.refreshToken(channel, message.payload);
      default:
        if (message.ref !== null) {
          this.reply(
            message,
            refused(`${message.event} is not served by the local stack (postgres_changes only)`),
          );
        }
    }
  }

  private async join(message: PhoenixMessage) {
    if (!message.topic.startsWith('realtime:') || message.topic === 'realtime:') {
      this.reply(message, refused('TopicNameRequired: You must provide a topic name'));
      return;
    }
    const payload = (
      typeof message.payload === 'object' && message.payload !== null ? message.payload : {}
    ) as {
      access_token?: unknown;
      config?: { postgres_changes?: unknown };
    };
    const offered = typeof payload.access_token === 'string' ? payload.access_token : null;
    // A publishable key (sb_…) is not a user token: the socket's API key stands for it, as on Supabase.
    const token = offered && !offered.startsWith('sb_') ? offered : this.apiKey;
    let claims: RealtimeClaims;
    try {
      claims = await this.hub.verifyToken(token);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      this.reply(message, refused(`InvalidJWTToken: ${error.message}`));
      return;
    }

    const previous = this.channels.get(message.topic);
    if (previous) this.closeChannel(previous);

    const entries = Array.isArray(payload.config?.postgres_changes) ? payload.config.postgres_changes : [];
    const parsed = entries.map(parseSubscription);
    const channel: Channel = {
      socket: this,
      topic: message.topic,
      joinRef: message.joinRef ?? message.ref,
      token,
      claims,
      subscriptions: parsed.map((entry) => ({
        id: this.hub.nextSubscriptionId(),
        params: entry.params,
        filters: entry.ok ? entry.filters : null,
      })),
    };
    this.channels.set(channel.topic, channel);
    this.hub.remember(channel);
    this.armExpiry(channel);

    this.reply(
      message,
      ok({ postgres_changes: channel.subscriptions.map(({ id, params }) => ({ ...params, id })) }),
    );
    if (parsed.length > 0) {
      const firstError = parsed.find((entry) => !entry.ok);
      if (firstError && !firstError.ok)
        this.pushSystem(channel, 'postgres_changes', 'error', firstError.error);
      else this.pushSystem(channel, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
    }
  }

  private async refreshToken(channel: Channel, payload: unknown) {
    const offered = (payload as { access_token?: unknown } | null)?.access_token;
    if (typeof offered !== 'string' || offered.startsWith('sb_') || offered === channel.token) return;
    try {
      channel.claims = await this.hub.verifyToken(offered);
      channel.token = offered;
      this.armExpiry(channel);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      this.shutdown(channel, error.message);
    }
  }

  /** When the channel's token expires, the subscription ends with an error (until refreshed). */
  private armExpiry(channel: Channel) {
    clearTimeout(channel.expiryTimer);
    const untilExpiry = channel.claims.exp * 1000 - Date.now();
    channel.expiryTimer = setTimeout(
      () => {
        if (this.channels.get(channel.topic) !== channel) return;
        if (channel.claims.exp * 1000 > Date.now()) return this.armExpiry(channel);
        const secondsAgo = Math.floor(Date.now() / 1000) - channel.claims.exp;
        this.shutdown(channel, `Token has expired ${secondsAgo} seconds ago`);
      },
      Math.max(0, Math.min(untilExpiry, maxTimerMs)),
    );
    channel.expiryTimer.unref();
  }
}

/** Subscribers, and delivery of each committed change to those who may see it. */
class RealtimeHub {
  private readonly channels = new Set<Channel>();
  private lastSubscriptionId = 0;
  readonly verifyToken: (token: string) => Promise<RealtimeClaims>;

  constructor(
    private readonly pool: pg.Pool,
    jwtSecret: string,
  ) {
    this.verifyToken = createTokenVerifier(jwtSecret);
  }

  nextSubscriptionId() {
    return ++this.lastSubscriptionId;
  }
  remember(channel: Channel) {
    this.channels.add(channel);
  }
  forget(channel: Channel) {
    clearTimeout(channel.expiryTimer);
    this.channels.delete(channel);
  }
  allChannels() {
    return [...this.channels];
  }

  async deliverTransaction(changes: CommittedChange[]) {
    for (const change of changes) {
      try {
        await this.deliver(change);
      } catch (error) {
        console.error(
          `realtime: could not deliver a change of ${change.relation.schema}.${change.relation.table}`,
          error,
        );
      }
    }
  }

  /**
   * One round trip per change: every interested subscriber's claims and filters go to
   * `realtime.apply_rls`, which answers who may see the row and with which columns.
   */
  private async deliver(change: CommittedChange) {
    const { schema, table } = change.relation;
    const checks: { claims: RealtimeClaims; filters: ColumnFilter[] }[] = [];
    const checkIndex = new Map<string, number>();
    const interested: { channel: Channel; subscription: Subscription; check: number }[] = [];
    // Filters apply to the new row, or to the old one for a deletion (as on Supabase).
    const filteredRow = change.type === 'DELETE' ? change.oldRecord : change.record;
    for (const channel of this.channels) {
      for (const subscription of channel.subscriptions) {
        if (!subscription.filters || !concerns(subscription.params, schema, table, change.type)) continue;
        if (certainlyFilteredOut(subscription.filters, change.relation.columns, filteredRow)) continue;
        // Subscribers with the same token and filters share one check.
        const key = `${channel.token} ${JSON.stringify(subscription.filters)}`;
        let check = checkIndex.get(key);
        if (check === undefined) {
          check = checks.push({ claims: channel.claims, filters: subscription.filters }) - 1;
          checkIndex.set(key, check);
        }
        interested.push({ channel, subscription, check });
      }
    }
    if (interested.length === 0) return;

    const { rows } = await this.pool.query<VisibleRow>(
      'select check_index, record, old_record, columns from realtime.apply_rls($1::regclass, $2, $3, $4, $5, $6)',
      [
        `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`,
        change.type,
        change.record,
        change.oldRecord,
        JSON.stringify(checks),
        change.xid,
      ],
    );
    const visible = new Map(rows.map((row) => [row.check_index, row]));

    const perChannel = new Map<Channel, { ids: number[]; row: VisibleRow }>();
    for (const { channel, subscription, check } of interested) {
      const row = visible.get(check);
      // The channel may have closed while the database answered.
      if (!row || !this.channels.has(channel)) continue;
      const entry = perChannel.get(channel);
      if (entry) entry.ids.push(subscription.id);
      else perChannel.set(channel, { ids: [subscription.id], row });
    }
    const commitTimestamp = change.commitTime.toISOString();
    for (const [channel, { ids, row }] of perChannel) {
      channel.socket.send({
        joinRef: channel.joinRef,
        ref: null,
        topic: channel.topic,
        event: 'postgres_changes',
        payload: {
          ids,
          data: {
            schema,
            table,
            commit_timestamp: commitTimestamp,
            type: change.type,
            columns: row.columns,
            ...(change.type === 'DELETE' ? {} : { record: row.record ?? {} }),
            ...(change.type === 'INSERT' ? {} : { old_record: row.old_record ?? {} }),
            errors: null,
          },
        },
      });
    }
  }
}

function refuseUpgrade(socket: Duplex, status: string) {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/**
 * Serves Supabase Realtime's `postgres_changes` on `/realtime/v1/websocket` of `server`: the Phoenix
 * protocol of @supabase/realtime-js, changes from logical replication of `supabase_realtime`, and
 * row-level security checked as each subscriber. The API key (`apikey` query parameter) must be a
 * token signed with the project's JWT secret, as on Supabase.
 */
export async function attachRealtime(server: Server, options: RealtimeOptions): Promise<RunningRealtime> {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: 1,
    application_name: 'coinvault-realtime-rls',
  });
  pool.on('error', (error) => console.error('realtime: database connection lost', error.message));
  const hub = new RealtimeHub(pool, options.jwtSecret);
  const sockets = new Set<RealtimeSocket>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  let closing = false;
  let replication: ReplicationStream | null = null;
  let retryTimer: NodeJS.Timeout | undefined;

  // Each (re)start makes a new temporary slot; changes committed in between are not invented.
  async function startReplication() {
    try {
      replication = await streamChanges(
        options.databaseUrl,
        (changes) => hub.deliverTransaction(changes),
        (error) => {
          console.error('realtime: replication stopped, restarting', error?.message);
          replication = null;
          scheduleReplication();
        },
      );
    } catch (error) {
      console.error('realtime: could not start replication', error instanceof Error ? error.message : error);
      scheduleReplication();
    }
  }
  function scheduleReplication() {
    if (closing) return;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => void startReplication(), replicationRetryMs);
  }

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
      await hub.verifyToken(apiKey);
    } catch {
      return refuseUpgrade(socket, '403 Forbidden');
    }
    if (closing) return refuseUpgrade(socket, '503 Service Unavailable');
    wss.handleUpgrade(request, socket, head, (ws) => {
      const realtimeSocket = new RealtimeSocket(ws, version, apiKey, hub);
      sockets.add(realtimeSocket);
      ws.on('close', () => sockets.delete(realtimeSocket));
      ws.on('error', () => ws.terminate());
    });
  }
  const upgradeListener = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    void onUpgrade(request, socket, head).catch(() => socket.destroy());
  };

  await startReplication();
  if (!replication) {
    clearTimeout(retryTimer);
    await pool.end();
    throw new Error('realtime: logical replication could not be started');
  }
  server.on('upgrade', upgradeListener);

  return {
    async close() {
      closing = true;
      clearTimeout(retryTimer);
      server.off('upgrade', upgradeListener);
      for (const channel of hub.allChannels()) hub.forget(channel);
      // Going away (1001): supabase-js reconnects and rejoins by itself when the server is back.
      const allClosed = new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const { ws } of sockets) ws.close(1001, 'server shutting down');
      await Promise.race([allClosed, new Promise((resolve) => setTimeout(resolve, closeGraceMs))]);
      for (const { ws } of sockets) ws.terminate();
      await allClosed;
      await replication?.close();
      await pool.end();
    },
  };
}
