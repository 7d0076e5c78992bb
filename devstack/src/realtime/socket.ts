import type { Duplex } from 'node:stream';
import { WebSocket, type RawData } from 'ws';
import type pg from 'pg';
import { AuthorizationError, canReadBroadcasts, unauthorizedReason } from './authorization';
import type { BroadcastMessage } from './broadcast';
import {
  decodeMessage,
  decodeUserBroadcastPush,
  encodeBroadcast,
  encodeMessage,
  encodePostgresChanges,
  type PhoenixMessage,
  type SerializerVersion,
} from './protocol';
import { subTopic, systemMessage, type Channel, type SubscriptionRegistry } from './registry';
import type { RlsChecker } from './rls-check';
import { parseSubscription } from './subscriptions';
import { TokenError, type RealtimeClaims } from './tokens';
import type { UnsentBudget } from './unsent-budget';

/** Supabase Realtime's `max_channels_per_client` default. */
export const maxChannelsPerClient = 100;
/** Supabase Realtime's `max_joins_per_second` default, counted here per socket. */
export const maxJoinsPerSecond = 100;
// Timers beyond this are re-armed, as Supabase Realtime re-confirms a token at least hourly.
const maxTimerMs = 60 * 60 * 1000;
/**
 * Frames a socket may hold unsent (its client reads too slowly) before it is cut off. Supabase Realtime
 * kills a socket's process once its heap passes `WEBSOCKET_MAX_HEAP_SIZE` (50 MB; supabase/realtime
 * `config/runtime.exs`, applied in `lib/realtime_web/channels/user_socket.ex`): the connection drops
 * without a word, and realtime-js reconnects and rejoins (and the app re-reads on the join). The same
 * here, with a smaller default because one process serves every socket (and a budget all sockets
 * share, `unsent-budget.ts`).
 */
export const defaultMaxBufferedBytes = 8 * 1024 * 1024;

export interface SocketContext {
  registry: SubscriptionRegistry;
  checker: RlsChecker;
  /** Connections for the join-time policy checks of private channels. */
  authorizationPool: pg.Pool;
  verifyToken(token: string): Promise<RealtimeClaims>;
  maxBufferedBytes: number;
  unsentBudget: UnsentBudget;
}

function ok(response: unknown = {}) {
  return { status: 'ok', response };
}
function refused(reason: string) {
  return { status: 'error', response: { reason } };
}

const unservedByLocalStack = (what: string) =>
  `${what} is not served by the local stack (postgres_changes and broadcasts from the database only)`;

/** One client's WebSocket: the Phoenix protocol of realtime-js (join, leave, heartbeat, token refresh). */
export class RealtimeSocket {
  readonly channels = new Map<string, Channel>();
  private queue = Promise.resolve();
  private recentJoins: number[] = [];
  private corked = false;

  constructor(
    readonly ws: WebSocket,
    /** The connection under `ws`: corked while a tick's frames are written, so they leave in one write. */
    private readonly transport: Duplex,
    readonly version: SerializerVersion,
    readonly apiKey: string,
    /** The `x-` headers of the upgrade request, given to the policies of private channels. */
    private readonly headers: Record<string, string>,
    private readonly context: SocketContext,
  ) {
    context.unsentBudget.add(ws);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      const message = isBinary
        ? decodeUserBroadcastPush(data as Buffer)
        : decodeMessage(version, data.toString());
      if (!message) return;
      // Joins are counted per second as they arrive: a busy gateway settling them later must not spread a
      // burst over more seconds than the client sent it in.
      const receivedAt = Date.now();
      // One message at a time per socket, so a join is settled before the next message is read.
      this.queue = this.queue
        .then(() => this.handle(message, receivedAt))
        .catch((error: unknown) => {
          console.error('realtime: message handling failed', error);
        });
    });
    ws.on('close', () => {
      for (const channel of this.channels.values()) context.registry.remove(channel);
      this.channels.clear();
    });
  }

  send(message: PhoenixMessage) {
    this.sendFrame(encodeMessage(this.version, message));
  }

  sendChange(channel: Channel, ids: number[], dataJson: string) {
    this.sendFrame(encodePostgresChanges(this.version, channel, ids, dataJson));
  }

  sendBroadcast(channel: Channel, message: BroadcastMessage) {
    let frame: string | Buffer;
    try {
      frame = encodeBroadcast(this.version, channel.topic, message);
    } catch (error) {
      // As Supabase Realtime's serializer, which cannot frame it either: this message is not sent.
      console.error(`realtime: ${(error as Error).message}`);
      return;
    }
    this.sendFrame(frame);
  }

  private sendFrame(frame: string | Buffer) {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    // Deliveries come in bursts (a batch of changes for many channels): one system call per burst.
    if (!this.corked) {
      this.corked = true;
      this.transport.cork();
      setImmediate(() => {
        this.corked = false;
        this.transport.uncork();
        this.context.unsentBudget.written();
      });
    }
    this.ws.send(frame);
    if (this.ws.bufferedAmount > this.context.maxBufferedBytes) {
      console.error(
        `realtime: a client read too slowly (over ${this.context.maxBufferedBytes} bytes unsent); closed`,
      );
      this.ws.terminate();
    }
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
    this.context.registry.remove(channel);
  }

  /** As Supabase Realtime's shutdown: a `system` error saying why, then the channel closes. */
  shutdown(channel: Channel, reason: string) {
    this.send(systemMessage(channel, 'system', 'error', reason));
    this.closeChannel(channel);
  }

  private async handle(message: PhoenixMessage, receivedAt: number) {
    if (message.topic === 'phoenix') {
      if (message.event === 'heartbeat') this.reply(message, ok());
      return;
    }
    if (message.event === 'phx_join') return this.join(message, receivedAt);
    const channel = this.channels.get(message.topic);
    // A channel the registry dropped (a reported gap) is rejoined by the client; until then it is unknown.
    if (!channel || !this.context.registry.has(channel)) {
      this.channels.delete(message.topic);
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
        if (message.ref !== null) this.reply(message, refused(unservedByLocalStack(message.event)));
    }
  }

  /** Supabase Realtime's per-client limits; the refusal names the limit reached. */
  private joinLimitReached(topic: string, receivedAt: number): string | null {
    const rejoin = this.channels.has(topic);
    if (!rejoin && this.channels.size >= maxChannelsPerClient)
      return 'ChannelRateLimitReached: Too many channels';
    this.recentJoins = this.recentJoins.filter((at) => receivedAt - at < 1000);
    if (this.recentJoins.length >= maxJoinsPerSecond)
      return 'ClientJoinRateLimitReached: Too many joins per second';
    this.recentJoins.push(receivedAt);
    return null;
  }

  private async join(message: PhoenixMessage, receivedAt: number) {
    if (!message.topic.startsWith('realtime:') || message.topic === 'realtime:') {
      this.reply(message, refused('TopicNameRequired: You must provide a topic name'));
      return;
    }
    const limit = this.joinLimitReached(message.topic, receivedAt);
    if (limit) return this.reply(message, refused(limit));
    const payload = (
      typeof message.payload === 'object' && message.payload !== null ? message.payload : {}
    ) as {
      access_token?: unknown;
      config?: {
        postgres_changes?: unknown;
        private?: unknown;
        presence?: { enabled?: unknown };
        broadcast?: { replay?: unknown };
      };
    };
    if (payload.config?.presence?.enabled === true)
      return this.reply(message, refused(unservedByLocalStack('presence')));
    if (payload.config?.broadcast?.replay !== undefined)
      return this.reply(message, refused(unservedByLocalStack('broadcast replay')));
    const isPrivate = payload.config?.private === true;
    const offered = typeof payload.access_token === 'string' ? payload.access_token : null;
    // A publishable key (sb_…) is not a user token: the socket's API key stands for it, as on Supabase.
    const token = offered && !offered.startsWith('sb_') ? offered : this.apiKey;
    let claims: RealtimeClaims;
    try {
      claims = await this.context.verifyToken(token);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      this.reply(message, refused(`InvalidJWTToken: ${error.message}`));
      return;
    }
    if (isPrivate) {
      const refusal = await this.privateTopicRefusal(message.topic, claims);
      if (refusal) return this.reply(message, refused(refusal));
    }

    // A malformed subscription is refused for this channel alone, before anything of it is shared.
    const entries = Array.isArray(payload.config?.postgres_changes) ? payload.config.postgres_changes : [];
    const parsed = entries.map(parseSubscription);
    for (const entry of parsed) {
      const problem = entry.ok
        ? await this.context.checker.filterProblem(entry.params.schema, entry.params.table, entry.filters)
        : entry.error;
      if (problem) return this.reply(message, refused(problem));
    }

    // A channel the registry dropped after a gap report was already ended by `phx_error`.
    const previous = this.channels.get(message.topic);
    if (previous && this.context.registry.has(previous)) this.closeChannel(previous);
    const channel: Channel = {
      socket: this,
      topic: message.topic,
      joinRef: message.joinRef ?? message.ref,
      private: isPrivate,
      token,
      claims,
      subscriptions: parsed.flatMap((entry) =>
        entry.ok
          ? [
              {
                id: this.context.registry.nextSubscriptionId(),
                params: entry.params,
                filters: entry.filters,
                filtersKey: JSON.stringify(entry.filters),
              },
            ]
          : [],
      ),
    };
    this.channels.set(channel.topic, channel);
    this.context.registry.add(channel);
    this.armExpiry(channel);

    this.reply(
      message,
      ok({ postgres_changes: channel.subscriptions.map(({ id, params }) => ({ ...params, id })) }),
    );
    if (parsed.length > 0)
      this.send(systemMessage(channel, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL'));
  }

  private async refreshToken(channel: Channel, payload: unknown) {
    const offered = (payload as { access_token?: unknown } | null)?.access_token;
    if (typeof offered !== 'string' || offered.startsWith('sb_') || offered === channel.token) return;
    let claims: RealtimeClaims;
    try {
      claims = await this.context.verifyToken(offered);
    } catch (error) {
      if (!(error instanceof TokenError)) throw error;
      return this.shutdown(channel, error.message);
    }
    // As Supabase Realtime: a private channel's policies are asked again with the new token.
    if (channel.private) {
      const refusal = await this.privateTopicRefusal(channel.topic, claims);
      if (this.channels.get(channel.topic) !== channel) return;
      if (refusal) return this.shutdown(channel, refusal.replace(/^Unauthorized: /, ''));
    }
    channel.claims = claims;
    channel.token = offered;
    this.armExpiry(channel);
  }

  /** Why the person may not read the private topic (the policies on `realtime.messages` say so), or null. */
  private async privateTopicRefusal(topic: string, claims: RealtimeClaims): Promise<string | null> {
    const sub = subTopic(topic);
    try {
      const allowed = await canReadBroadcasts(this.context.authorizationPool, {
        topic: sub,
        claims,
        headers: this.headers,
      });
      return allowed ? null : `Unauthorized: ${unauthorizedReason(sub)}`;
    } catch (error) {
      if (error instanceof AuthorizationError) return error.message;
      console.error('realtime: the policy check of a private channel failed', (error as Error).message);
      return 'UnableToConnectToProject: Realtime was unable to connect to the project database';
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
