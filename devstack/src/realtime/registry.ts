import type { PhoenixMessage } from './protocol';
import { BroadcastTopics, type BroadcastMessage } from './broadcast';
import type { CommittedChange } from './change-source';
import {
  certainlyFilteredOut,
  concerns,
  type ColumnFilter,
  type PostgresChangesParams,
} from './subscriptions';
import type { RealtimeClaims } from './tokens';

export interface Subscription {
  id: number;
  params: PostgresChangesParams;
  filters: ColumnFilter[];
  /** `filters` as JSON, part of the key that identical subscribers share. */
  filtersKey: string;
}

/** What the registry needs of a socket: sending frames to its client. */
export interface ChannelSocket {
  send(message: PhoenixMessage): void;
  /** Sends a `postgres_changes` frame whose `data` is already JSON (shared by the change's channels). */
  sendChange(channel: Channel, ids: number[], dataJson: string): void;
  /** Sends a broadcast of the channel's topic. */
  sendBroadcast(channel: Channel, message: BroadcastMessage): void;
}

export interface Channel {
  socket: ChannelSocket;
  topic: string;
  joinRef: string | null;
  /** Joined with `config.private`: its topic's policies on `realtime.messages` admitted it. */
  private: boolean;
  token: string;
  claims: RealtimeClaims;
  subscriptions: Subscription[];
  expiryTimer?: NodeJS.Timeout;
}

/** One visibility check of a change: a subscriber's claims and filters (shared by identical subscribers). */
export interface SubscriberCheck {
  /** The same for identical subscribers (same token and filters), so they share one check. */
  key: string;
  claims: RealtimeClaims;
  filters: ColumnFilter[];
}

/** The channels a change may concern, grouped into the checks the database must make for it. */
export interface InterestedChannels {
  checks: SubscriberCheck[];
  interested: { channel: Channel; subscription: Subscription; check: number }[];
}

export function subTopic(topic: string) {
  return topic.replace(/^realtime:/, '');
}

/** A `system` message on a channel, as Supabase Realtime sends about an extension's state. */
export function systemMessage(channel: Channel, extension: string, status: 'ok' | 'error', text: string) {
  return {
    joinRef: channel.joinRef,
    ref: null,
    topic: channel.topic,
    event: 'system',
    payload: { extension, status, message: text, channel: subTopic(channel.topic) },
  };
}

/** The joined channels of every socket, and who among them a change concerns. */
export class SubscriptionRegistry {
  private readonly channels = new Set<Channel>();
  /** The same channels by broadcast topic. */
  readonly topics = new BroadcastTopics();
  private lastSubscriptionId = 0;
  /**
   * Each subscription's check key, made once per token rather than once per change: at hundreds of
   * changes a second, building and hashing a token-long string for every channel was a large part of
   * the process's CPU (V8 keeps a string's hash, so the same string object is cheap to look up again).
   */
  private readonly checkKeys = new WeakMap<Subscription, { token: string; key: string }>();

  private checkKey(channel: Channel, subscription: Subscription) {
    const known = this.checkKeys.get(subscription);
    if (known?.token === channel.token) return known.key;
    const key = `${channel.token} ${subscription.filtersKey}`;
    this.checkKeys.set(subscription, { token: channel.token, key });
    return key;
  }

  nextSubscriptionId() {
    return ++this.lastSubscriptionId;
  }
  add(channel: Channel) {
    this.channels.add(channel);
    this.topics.add(channel);
  }
  remove(channel: Channel) {
    clearTimeout(channel.expiryTimer);
    this.channels.delete(channel);
    this.topics.remove(channel);
  }
  has(channel: Channel) {
    return this.channels.has(channel);
  }
  all() {
    return [...this.channels];
  }

  /**
   * The subscriptions `change` may concern (table, event, and filters that the row's own values do not
   * already rule out); subscribers with the same token and filters share one check.
   */
  interestedIn(change: CommittedChange): InterestedChannels {
    const { schema, table } = change.relation;
    const checks: SubscriberCheck[] = [];
    const checkIndex = new Map<string, number>();
    const interested: InterestedChannels['interested'] = [];
    // Filters apply to the new row, or to the old one for a deletion (as on Supabase).
    const filteredRow = change.type === 'DELETE' ? change.oldRecord : change.record;
    for (const channel of this.channels) {
      for (const subscription of channel.subscriptions) {
        if (!concerns(subscription.params, schema, table, change.type)) continue;
        if (certainlyFilteredOut(subscription.filters, change.relation.columns, filteredRow)) continue;
        const key = this.checkKey(channel, subscription);
        let check = checkIndex.get(key);
        if (check === undefined) {
          check = checks.push({ key, claims: channel.claims, filters: subscription.filters }) - 1;
          checkIndex.set(key, check);
        }
        interested.push({ channel, subscription, check });
      }
    }
    return { checks, interested };
  }

  /**
   * Tells `channels` that changes may have been missed, as Supabase Realtime does when its replication
   * breaks: a `system` error, then `phx_error`, on which realtime-js reports CHANNEL_ERROR and rejoins by
   * itself (an app re-reads what the channel covers when it has joined again). The channel is dropped
   * here, so the rejoin is a fresh join.
   */
  reportGap(channels: Iterable<Channel>, reason: string) {
    for (const channel of channels) {
      if (!this.channels.has(channel)) continue;
      this.remove(channel);
      channel.socket.send(systemMessage(channel, 'postgres_changes', 'error', reason));
      channel.socket.send({
        joinRef: channel.joinRef,
        ref: channel.joinRef,
        topic: channel.topic,
        event: 'phx_error',
        payload: {},
      });
    }
  }
}
