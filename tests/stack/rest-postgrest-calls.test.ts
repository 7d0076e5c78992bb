import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../devstack/src/stack';

/**
 * PostgREST 14 (the version hosted Supabase runs: `postgrest/postgrest:v14.12` in supabase/cli's
 * apps/cli-go/pkg/config/templates/Dockerfile) on function calls, computed fields and upserts, over the
 * functions of tests/fixtures/postgrest-calls (a project of its own, so CoinVault's schema stays as it is).
 */
let projectRoot: string;
let stack: RunningStack;

beforeAll(async () => {
  projectRoot = await mkdtemp(path.join(tmpdir(), 'devstack-postgrest-calls-'));
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
  }: { method?: string; body?: BodyInit; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${stack.apiUrl}/rest/v1/${pathAndQuery}`, {
    method,
    body,
    headers: { apikey: stack.anonKey, 'Content-Type': 'application/json', ...headers },
  });
  const text = await response.text();
  return {
    status: response.status,
    contentRange: response.headers.get('content-range'),
    body: text ? (JSON.parse(text) as unknown) : null,
  };
}

const call = (name: string, body: unknown, headers: Record<string, string> = {}) =>
  rest(`rpc/${name}`, { method: 'POST', body: JSON.stringify(body), headers });

// PostgREST src/PostgREST/Plan.hs (findProc) and src/PostgREST/Error.hs (AmbiguousRpc).
describe('overloaded functions', () => {
  it("answers 300 PGRST203 naming every candidate, in PostgREST's order, when two overloads take the argument", async () => {
    expect(await call('echo', { value: 'test' })).toEqual({
      status: 300,
      contentRange: null,
      body: {
        code: 'PGRST203',
        message:
          'Could not choose the best candidate function between: public.echo(value => integer), public.echo(value => text)',
        details: null,
        hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
      },
    });
  });

  it('answers 300 PGRST203 when a call without arguments fits an overload and another one with a default', async () => {
    const answer = await call('greeting', {});
    expect(answer.status).toBe(300);
    expect(answer.body).toMatchObject({
      code: 'PGRST203',
      message:
        'Could not choose the best candidate function between: public.greeting(), public.greeting(name => text)',
    });
  });

  it('calls the overload with a default when its argument is given', async () => {
    expect(await call('greeting', { name: 'Ada' })).toMatchObject({ status: 200, body: 'hello Ada' });
  });
});

// PostgREST src/PostgREST/Plan.hs (hasSingleUnnamedParam, callPlan's OnePosParam) and
// src/PostgREST/SchemaCache.hs (funcsSqlQuery: which unnamed arguments are callable).
describe('functions with one unnamed argument', () => {
  it('passes the whole JSON body of {"": "x"} to a text argument', async () => {
    expect(await call('length_of_text', { '': 'x' })).toMatchObject({
      status: 200,
      body: JSON.stringify({ '': 'x' }).length,
    });
  });

  it('passes a JSON body to a json argument', async () => {
    expect(await call('keys_of_json', { b: 1, a: 2 })).toMatchObject({ status: 200, body: 'a,b' });
  });

  it('passes a text/plain body to a text argument', async () => {
    const answer = await rest('rpc/length_of_text', {
      method: 'POST',
      body: 'four',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(answer).toMatchObject({ status: 200, body: 4 });
  });

  it('passes an application/octet-stream body to a bytea argument, byte for byte', async () => {
    const answer = await rest('rpc/size_of_bytes', {
      method: 'POST',
      body: new Blob([new Uint8Array([0, 255, 1, 254, 2])]),
      headers: { 'Content-Type': 'application/octet-stream' },
    });
    expect(answer).toMatchObject({ status: 200, body: 5 });
  });

  it('passes a text/xml body to an xml argument', async () => {
    const answer = await rest('rpc/root_of_xml', {
      method: 'POST',
      body: '<wallet><coin/></wallet>',
      headers: { 'Content-Type': 'text/xml' },
    });
    expect(answer).toMatchObject({ status: 200, body: 'wallet' });
  });

  it('does not know a function whose one unnamed argument no body can fill (404 PGRST202)', async () => {
    expect(await call('doubled', { '': 1 })).toMatchObject({
      status: 404,
      body: {
        code: 'PGRST202',
        message: 'Could not find the function public.doubled() in the schema cache',
        details:
          'Searched for the function public.doubled with parameter  or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      },
    });
  });
});

// PostgREST src/library/PostgREST/Error.hs (noRpcHint, tableNotFoundHint) and test/spec RpcSpec, ErrorSpec.
describe('"Perhaps you meant…" hints, as PostgREST 14 gives them', () => {
  it('suggests the closest function name for a misspelt one', async () => {
    expect(await rest('rpc/plus_on?n=1')).toMatchObject({
      status: 404,
      body: { code: 'PGRST202', hint: 'Perhaps you meant to call the function public.plus_one' },
    });
  });

  it('suggests the parameters of the closest overload for a function called with wrong ones', async () => {
    expect(await rest('rpc/plus_one?num=1')).toMatchObject({
      status: 404,
      body: {
        message: 'Could not find the function public.plus_one(num) in the schema cache',
        hint: 'Perhaps you meant to call the function public.plus_one(n)',
      },
    });
  });

  it('gives no hint when nothing is close', async () => {
    expect(await rest('rpc/noclosealternative')).toMatchObject({ status: 404, body: { hint: null } });
  });

  it('suggests the closest table', async () => {
    expect(await rest('messagez?select=id')).toMatchObject({
      status: 404,
      body: {
        code: 'PGRST205',
        message: "Could not find the table 'public.messagez' in the schema cache",
        hint: "Perhaps you meant the table 'public.messages'",
      },
    });
  });
});

// PostgREST src/PostgREST/Error.hs (NoRpc: message and details).
describe('PGRST202 as PostgREST 14 words it', () => {
  it('says "without parameters" for a call without arguments', async () => {
    expect(await call('nowhere', {})).toEqual({
      status: 404,
      contentRange: null,
      body: {
        code: 'PGRST202',
        message: 'Could not find the function public.nowhere without parameters in the schema cache',
        details:
          'Searched for the function public.nowhere without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
        hint: null,
      },
    });
  });

  it('lists the argument names in sorted order, and a GET does not mention a JSON body', async () => {
    expect(await rest('rpc/nowhere?b=1&a=2')).toMatchObject({
      status: 404,
      body: {
        message: 'Could not find the function public.nowhere(a, b) in the schema cache',
        details:
          'Searched for the function public.nowhere with parameters a, b, but no matches were found in the schema cache.',
      },
    });
  });

  it('names the raw body it searched for, without parameters', async () => {
    const answer = await rest('rpc/nowhere', {
      method: 'POST',
      body: 'text',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(answer).toMatchObject({
      status: 404,
      body: {
        message: 'Could not find the function public.nowhere in the schema cache',
        details:
          'Searched for the function public.nowhere with a single unnamed text parameter, but no matches were found in the schema cache.',
      },
    });
  });
});

// PostgREST src/PostgREST/Error.hs (SingularityError).
describe('PGRST116 as PostgREST 14 words it', () => {
  it('answers .single() over no row with "Cannot coerce the result to a single JSON object"', async () => {
    const answer = await rest('messages?id=eq.-1', {
      headers: { Accept: 'application/vnd.pgrst.object+json' },
    });
    expect(answer).toEqual({
      status: 406,
      contentRange: null,
      body: {
        code: 'PGRST116',
        message: 'Cannot coerce the result to a single JSON object',
        details: 'The result contains 0 rows',
        hint: null,
      },
    });
  });
});

// PostgREST src/PostgREST/Response.hs (the count of a call's result).
describe('a counted call of a scalar function', () => {
  it('answers Content-Range 0-0/1', async () => {
    const answer = await call('plus_one', { n: 1 }, { Prefer: 'count=exact' });
    expect(answer).toMatchObject({ status: 200, contentRange: '0-0/1', body: 2 });
  });
});

// PostgREST src/PostgREST/Response.hs (the status of a POST with Prefer: resolution).
describe('upserts', () => {
  it('answers 201 [] to an insert that ignores a duplicate, and changes nothing', async () => {
    expect(
      await rest('messages', { method: 'POST', body: JSON.stringify({ id: 1, body: 'first' }) }),
    ).toMatchObject({
      status: 201,
    });
    const ignored = await rest('messages', {
      method: 'POST',
      body: JSON.stringify({ id: 1, body: 'second' }),
      headers: { Prefer: 'resolution=ignore-duplicates,return=representation' },
    });
    expect(ignored).toMatchObject({ status: 201, body: [] });
    expect((await rest('messages?id=eq.1&select=body')).body).toEqual([{ body: 'first' }]);
  });

  it('answers 200 to a merge that inserted nothing', async () => {
    const merged = await rest('messages', {
      method: 'POST',
      body: JSON.stringify({ id: 1, body: 'merged' }),
      headers: { Prefer: 'resolution=merge-duplicates,return=representation' },
    });
    expect(merged).toMatchObject({ status: 200, body: [{ id: 1, body: 'merged' }] });
  });
});

// PostgREST docs "Computed Fields"; the fields resolve in src/PostgREST/Plan.hs like columns.
describe('computed fields', () => {
  beforeAll(async () => {
    await rest('messages', {
      method: 'POST',
      body: JSON.stringify([
        { id: 10, body: 'bravo' },
        { id: 11, body: 'alpha' },
      ]),
    });
  });

  it('selects a function of the row like a column, beside * or named columns', async () => {
    expect((await rest('messages?select=id,shouted&id=in.(10,11)&order=id')).body).toEqual([
      { id: 10, shouted: 'BRAVO' },
      { id: 11, shouted: 'ALPHA' },
    ]);
    const [first] = (await rest('messages?select=*,loud:shouted&id=eq.10')).body as Record<string, unknown>[];
    expect(first).toMatchObject({ id: 10, body: 'bravo', loud: 'BRAVO' });
  });

  it('filters and orders by a computed field', async () => {
    const answer = await rest('messages?select=id&shouted=like.*A&id=in.(10,11)&order=shouted.desc', {
      headers: { Prefer: 'count=exact' },
    });
    expect(answer).toMatchObject({ status: 200, contentRange: '0-0/1', body: [{ id: 11 }] });
    expect((await rest('messages?select=id&id=in.(10,11)&order=shouted')).body).toEqual([
      { id: 11 },
      { id: 10 },
    ]);
  });

  // PostgREST src/PostgREST/Plan.hs: a call's rows of a table's type have that table's computed fields.
  it("selects a computed field on the rows of a function returning the table's type", async () => {
    expect(await rest('rpc/messages_containing?fragment=ra&select=id,shouted,body')).toMatchObject({
      status: 200,
      body: [{ id: 10, shouted: 'BRAVO', body: 'bravo' }],
    });
    const posted = await rest('rpc/messages_containing?select=loud:shouted&shouted=eq.ALPHA', {
      method: 'POST',
      body: JSON.stringify({ fragment: 'lph' }),
    });
    expect(posted).toMatchObject({ status: 200, body: [{ loud: 'ALPHA' }] });
  });

  it('refuses a computed field in a write by name, changing nothing', async () => {
    const answer = await rest('messages?shouted=eq.BRAVO', {
      method: 'PATCH',
      body: JSON.stringify({ body: 'changed' }),
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        code: 'PGRST100',
        message: "Unsupported by the local stack: computed field 'shouted' in a write",
      },
    });
    expect((await rest('messages?id=eq.10&select=body')).body).toEqual([{ body: 'bravo' }]);
  });
});
