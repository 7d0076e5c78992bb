import type { CommittedChange } from './change-source';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { subTopic, type Channel } from './registry';

/**
 * Payload bytes sent per event-loop turn before the rest waits for the next: a large transaction's
 * broadcasts then leave in slices, so clients that read keep up between them and only one that does not
 * read piles up unsent frames (and is cut off by the unsent budget), instead of every socket holding the
 * whole transaction at once.
 */
export const sliceBytes = 256 * 1024;

/** The publication Supabase Realtime streams `realtime.messages` from (its replication_connection.ex). */
export const broadcastStream = {
  publication: 'supabase_realtime_messages_publication',
  applicationName: 'coinvault-realtime-broadcast',
};

/** A broadcast as it leaves `realtime.messages`: the payload is already JSON text, encoded once for every channel. */
export interface BroadcastMessage {
  id: string;
  topic: string;
  event: string;
  private: boolean;
  payloadJson: string;
}

function topicKey(isPrivate: boolean, topic: string) {
  return `${isPrivate ? 'private' : 'public'}:${topic}`;
}

/**
 * The message a replicated insert into a partition of `realtime.messages` carries, or null for anything
 * else (the probes of join checks are rolled back and never replicated; `binary_payload` is not served).
 */
export function broadcastOf(change: CommittedChange): BroadcastMessage | null {
  const { schema, table } = change.relation;
  if (change.type !== 'INSERT' || schema !== 'realtime' || !table.startsWith('messages')) return null;
  const row = change.record;
  if (!row || row.extension !== 'broadcast') return null;
  const { id, topic, event, payload } = row;
  if (typeof id !== 'string' || typeof topic !== 'string' || typeof event !== 'string') return null;
  if (payload === null || payload === undefined) return null;
  return { id, topic, event, private: row.private === 't', payloadJson: JSON.stringify(payload) };
}

/**
 * The channels joined to each broadcast topic. A broadcast goes to the channels of its topic joined with
 * the same privacy (a private message never reaches a public channel of the same name): one map lookup
 * per message, whatever the number of people connected, which is why Broadcast scales where Postgres
 * Changes (a check per subscriber and change) does not.
 */
export class BroadcastTopics {
  private readonly byTopic = new Map<string, Set<Channel>>();

  add(channel: Channel) {
    const key = topicKey(channel.private, subTopic(channel.topic));
    let channels = this.byTopic.get(key);
    if (!channels) this.byTopic.set(key, (channels = new Set()));
    channels.add(channel);
  }

  remove(channel: Channel) {
    const key = topicKey(channel.private, subTopic(channel.topic));
    const channels = this.byTopic.get(key);
    channels?.delete(channel);
    if (channels?.size === 0) this.byTopic.delete(key);
  }

  /** Whether any of the messages has a channel to go to. */
  anyJoined(messages: readonly BroadcastMessage[]): boolean {
    return messages.some((message) => this.byTopic.has(topicKey(message.private, message.topic)));
  }

  /** Sends each message to every channel of its topic, in the order given, a slice per event-loop turn. */
  async deliver(messages: BroadcastMessage[]) {
    let sliceSent = 0;
    for (const message of messages) {
      const channels = this.byTopic.get(topicKey(message.private, message.topic));
      if (!channels) continue;
      for (const channel of channels) channel.socket.sendBroadcast(channel, message);
      sliceSent += message.payloadJson.length * channels.size;
      if (sliceSent >= sliceBytes) {
        sliceSent = 0;
        await nextTurn();
      }
    }
  }
}
