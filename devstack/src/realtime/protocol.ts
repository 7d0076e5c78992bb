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
