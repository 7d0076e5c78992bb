import type { IncomingMessage } from 'node:http';
import { readBody } from '../http';
import { authErrors } from './errors';

/** A JSON request body as GoTrue's `retrieveRequestParams` reads it: an object, or bad_json. */
export type JsonObject = Record<string, unknown>;

/** Parses a body: empty is `{}`, anything but a JSON object is GoTrue's `bad_json` (api/helpers.go). */
export function parseJsonObject(raw: string): JsonObject {
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as JsonObject;
  } catch {
    // Answered below with GoTrue's bad_json error.
  }
  throw authErrors.badJson();
}

export async function readJsonObject(request: IncomingMessage): Promise<JsonObject> {
  return parseJsonObject((await readBody(request, 1024 * 1024)).toString('utf8'));
}

export function stringField(body: JsonObject, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

export function objectField(body: JsonObject, name: string): JsonObject | undefined {
  const value = body[name];
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : undefined;
}
