/**
 * Phoenix channel frames as @supabase/realtime-js speaks them: serializer `vsn=2.0.0` (the default
 * since realtime-js 2.1x) sends JSON arrays `[join_ref, ref, topic, event, payload]`; `vsn=1.0.0`
 * sends objects with the same fields.
 */
export interface PhoenixMessage {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

export type SerializerVersion = '1.0.0' | '2.0.0';

export function serializerVersion(vsn: string | null): SerializerVersion | null {
  if (vsn === null || vsn === '1.0.0') return '1.0.0';
  if (vsn === '2.0.0') return '2.0.0';
  return null;
}

function asRef(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Decodes a text frame; null for anything that is not a well-formed message. */
export function decodeMessage(version: SerializerVersion, text: string): PhoenixMessage | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (version === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) return null;
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') return null;
    return { joinRef: asRef(joinRef), ref: asRef(ref), topic, event, payload };
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { join_ref: joinRef, ref, topic, event, payload } = parsed as Record<string, unknown>;
  if (typeof topic !== 'string' || typeof event !== 'string') return null;
  return { joinRef: asRef(joinRef), ref: asRef(ref), topic, event, payload };
}

export function encodeMessage(version: SerializerVersion, message: PhoenixMessage): string {
  const { joinRef, ref, topic, event, payload } = message;
  if (version === '2.0.0') return JSON.stringify([joinRef, ref, topic, event, payload]);
  return JSON.stringify({ join_ref: joinRef, ref, topic, event, payload });
}

/**
 * A `postgres_changes` frame whose `data` is already JSON: a change goes to many channels with the
 * same data, which is then encoded once rather than once per channel.
 */
export function encodePostgresChanges(
  version: SerializerVersion,
  channel: { joinRef: string | null; topic: string },
  ids: number[],
  dataJson: string,
): string {
  const payload = `{"ids":${JSON.stringify(ids)},"data":${dataJson}}`;
  const joinRef = JSON.stringify(channel.joinRef);
  const topic = JSON.stringify(channel.topic);
  if (version === '2.0.0') return `[${joinRef},null,${topic},"postgres_changes",${payload}]`;
  return `{"join_ref":${joinRef},"ref":null,"topic":${topic},"event":"postgres_changes","payload":${payload}}`;
}

/** realtime-js's binary frame kinds (its lib/serializer.ts; supabase/realtime's V2Serializer). */
const userBroadcastPush = 3;
const userBroadcast = 4;
const jsonEncoding = 1;

/**
 * A broadcast from the database as Supabase Realtime sends it: with serializer 2.0.0 a binary user
 * broadcast (kind 4: topic, event, `{"id"}` metadata and the JSON payload, each length in one byte), with
 * 1.0.0 a JSON `broadcast` message whose payload is `{type: "broadcast", event, payload, meta: {id}}`.
 */
export function encodeBroadcast(
  version: SerializerVersion,
  topic: string,
  message: { id: string; event: string; payloadJson: string },
): string | Buffer {
  const meta = JSON.stringify({ id: message.id });
  if (version === '1.0.0') {
    return `{"join_ref":null,"ref":null,"topic":${JSON.stringify(topic)},"event":"broadcast","payload":{"event":${JSON.stringify(message.event)},"payload":${message.payloadJson},"type":"broadcast","meta":${meta}}}`;
  }
  const parts = [topic, message.event, meta].map((part) => Buffer.from(part, 'utf8'));
  if (parts.some((part) => part.length > 255))
    throw new Error('a broadcast topic or event is longer than 255 bytes');
  const [topicBytes, eventBytes, metaBytes] = parts as [Buffer, Buffer, Buffer];
  const header = Buffer.from([
    userBroadcast,
    topicBytes.length,
    eventBytes.length,
    metaBytes.length,
    jsonEncoding,
  ]);
  return Buffer.concat([header, topicBytes, eventBytes, metaBytes, Buffer.from(message.payloadJson, 'utf8')]);
}

/**
 * The routing part of a binary user broadcast push from realtime-js (kind 3: join ref, ref, topic and
 * event), so that it can be answered; its payload is not read. Null for any other binary frame.
 */
export function decodeUserBroadcastPush(frame: Buffer): PhoenixMessage | null {
  if (frame.length < 7 || frame[0] !== userBroadcastPush) return null;
  const lengths = [1, 2, 3, 4].map((index) => frame[index] ?? 0);
  let offset = 7;
  const [joinRef, ref, topic, event] = lengths.map((length) => {
    const text = frame.subarray(offset, offset + length).toString('utf8');
    offset += length;
    return text;
  }) as [string, string, string, string];
  return { joinRef: joinRef || null, ref: ref || null, topic, event: 'broadcast', payload: { event } };
}
