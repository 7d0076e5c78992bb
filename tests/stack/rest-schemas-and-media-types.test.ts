import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../devstack/src/stack';

/**
 * PostgREST 14 (hosted Supabase's `postgrest/postgrest:v14.12`) on the schemas it exposes (`[api] schemas`,
 * chosen per request with Accept-Profile / Content-Profile) and the media types it writes, over the project
 * of tests/fixtures/postgrest-calls (schemas `public` and `personal`).
 */
let projectRoot: string;
let stack: RunningStack;

beforeAll(async () => {
  projectRoot = await mkdtemp(path.join(tmpdir(), 'devstack-postgrest-schemas-'));
  await cp('tests/fixtures/postgrest-calls', projectRoot, { recursive: true });
  stack = await startStack({ projectRoot });
});

afterAll(async () => {
  await stack?.stop();
  await rm(projectRoot, { recursive: true, force: true });
});

async function rest(
  pathAndQuery: string,
  {
    method = 'GET',
    body,
    headers = {},
  }: { method?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${stack.apiUrl}/rest/v1/${pathAndQuery}`, {
    method,
    body,
    headers: { apikey: stack.anonKey, 'Content-Type': 'application/json', ...headers },
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.includes('json') ?? false;
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    profile: response.headers.get('content-profile'),
    body: json && text ? (JSON.parse(text) as unknown) : text,
  };
}

// PostgREST src/PostgREST/ApiRequest.hs (getSchema), Error.hs (UnacceptableSchema), Response.hs (profileHeader).
describe('exposed schemas', () => {
  it('reads a table of the schema named by Accept-Profile, and says which schema answered', async () => {
    expect(
      await rest('notes?select=id,body&order=id', { headers: { 'Accept-Profile': 'personal' } }),
    ).toMatchObject({
      status: 200,
      profile: 'personal',
      body: [
        { id: 1, body: 'first note' },
        { id: 2, body: 'second, "quoted" note' },
      ],
    });
  });

  it('answers from the first exposed schema without a profile, naming it when several are exposed', async () => {
    expect(await rest('notes')).toMatchObject({
      status: 404,
      body: { code: 'PGRST205', message: "Could not find the table 'public.notes' in the schema cache" },
    });
    expect(await rest('messages?select=id&limit=1')).toMatchObject({ status: 200, profile: 'public' });
  });

  it('writes to the schema named by Content-Profile (not Accept-Profile)', async () => {
    const written = await rest('notes?select=id,body', {
      method: 'POST',
      body: JSON.stringify({ id: 3, body: 'third note' }),
      headers: { 'Content-Profile': 'personal', Prefer: 'return=representation' },
    });
    expect(written).toMatchObject({
      status: 201,
      profile: 'personal',
      body: [{ id: 3, body: 'third note' }],
    });
    const deleted = await rest('notes?id=eq.3', {
      method: 'DELETE',
      headers: { 'Accept-Profile': 'personal' },
    });
    expect(deleted).toMatchObject({ status: 404, body: { code: 'PGRST205' } });
    await rest('notes?id=eq.3', { method: 'DELETE', headers: { 'Content-Profile': 'personal' } });
  });

  it('calls a function of the schema with that schema first in search_path, as PostgREST sets it', async () => {
    expect(
      await rest('rpc/note_count', {
        method: 'POST',
        body: '{}',
        headers: { 'Content-Profile': 'personal' },
      }),
    ).toMatchObject({ status: 200, body: 2 });
    expect(await rest('rpc/note_count', { headers: { 'Accept-Profile': 'personal' } })).toMatchObject({
      status: 200,
      body: 2,
    });
  });

  it('answers 406 PGRST106 listing the exposed schemas for a schema not exposed', async () => {
    const cases: { method: string; header: string; schema: string }[] = [
      { method: 'GET', header: 'Accept-Profile', schema: 'private' },
      { method: 'POST', header: 'Content-Profile', schema: 'auth' },
    ];
    for (const { method, header, schema } of cases) {
      const body = method === 'POST' ? '{}' : undefined;
      expect(await rest('notes', { method, body, headers: { [header]: schema } })).toMatchObject({
        status: 406,
        body: {
          code: 'PGRST106',
          message: `Invalid schema: ${schema}`,
          details: null,
          hint: 'Only the following schemas are exposed: public, personal',
        },
      });
    }
  });
});

// PostgREST src/PostgREST/Query/SqlFragment.hs (asCsvF) and MediaType.hs.
describe('media types', () => {
  it('writes CSV for Accept: text/csv: a header of field names, then each row as Postgres writes a record (text with spaces quoted)', async () => {
    expect(
      await rest('notes?order=id', { headers: { 'Accept-Profile': 'personal', Accept: 'text/csv' } }),
    ).toEqual({
      status: 200,
      contentType: 'text/csv; charset=utf-8',
      profile: 'personal',
      body: 'id,body\n1,"first note"\n2,"second, ""quoted"" note"',
    });
  });

  it('writes an empty CSV as a lone line break', async () => {
    expect(
      await rest('notes?id=eq.0', { headers: { 'Accept-Profile': 'personal', Accept: 'text/csv' } }),
    ).toMatchObject({ status: 200, body: '\n' });
  });

  it("takes the first of Accept's types it can write", async () => {
    const answer = await rest('notes?select=id&id=eq.1', {
      headers: { 'Accept-Profile': 'personal', Accept: 'text/csv, application/json' },
    });
    expect(answer).toMatchObject({ contentType: 'text/csv; charset=utf-8', body: 'id\n1' });
  });

  it('refuses GeoJSON by name with 406 (it needs PostGIS, which the embedded Postgres lacks)', async () => {
    expect(await rest('messages', { headers: { Accept: 'application/geo+json' } })).toMatchObject({
      status: 406,
      body: {
        code: 'PGRST107',
        message: 'Unsupported by the local stack: GeoJSON (Accept: application/geo+json) needs PostGIS',
      },
    });
  });

  it('refuses execution plans by name with 406', async () => {
    const accept = 'application/vnd.pgrst.plan+json; for="application/json"; options=verbose';
    expect(await rest('messages', { headers: { Accept: accept } })).toMatchObject({
      status: 406,
      body: {
        code: 'PGRST107',
        message: 'Unsupported by the local stack: execution plans (Accept: application/vnd.pgrst.plan+json)',
      },
    });
  });

  // PostgREST's `asJsonF` (Query/SqlFragment.hs): one composite row is `json_agg(…)->0`, typed as asked.
  it('answers a function returning one composite row with the object as application/json', async () => {
    expect(await rest('rpc/card_of', { method: 'POST', body: JSON.stringify({ title: 'only' }) })).toEqual({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      profile: 'public',
      body: { title: 'only', subtitle: null },
    });
  });

  // MediaType.hs: `nulls=stripped` on vnd.pgrst.array+json and vnd.pgrst.object+json (`json_strip_nulls`).
  it('leaves null fields out for Accept: application/vnd.pgrst.array+json;nulls=stripped', async () => {
    expect(
      await rest('rpc/cards', { headers: { Accept: 'application/vnd.pgrst.array+json;nulls=stripped' } }),
    ).toMatchObject({
      status: 200,
      contentType: 'application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8',
      body: [{ title: 'first' }, { title: 'second', subtitle: 'with a subtitle' }],
    });
    expect(
      await rest('rpc/card_of?title=alone', {
        headers: { Accept: 'application/vnd.pgrst.object+json;nulls=stripped' },
      }),
    ).toMatchObject({
      status: 200,
      contentType: 'application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8',
      body: { title: 'alone' },
    });
  });

  it('keeps nulls for vnd.pgrst.array+json without the parameter, answered as application/json', async () => {
    expect(
      await rest('rpc/cards', { headers: { Accept: 'application/vnd.pgrst.array+json' } }),
    ).toMatchObject({
      contentType: 'application/json; charset=utf-8',
      body: [
        { title: 'first', subtitle: null },
        { title: 'second', subtitle: 'with a subtitle' },
      ],
    });
  });

  it('answers 406 PGRST107 for a media type PostgREST does not write either', async () => {
    expect(await rest('messages', { headers: { Accept: 'image/png' } })).toMatchObject({
      status: 406,
      body: { code: 'PGRST107', message: 'None of these media types are available: image/png' },
    });
  });
});
