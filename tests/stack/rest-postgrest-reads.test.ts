import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type RunningStack } from '../../devstack/src/stack';

/**
 * PostgREST 14 (the version hosted Supabase runs: `postgrest/postgrest:v14.12` in supabase/cli's
 * apps/cli-go/pkg/config/templates/Dockerfile) on reads: its other operators, JSON paths and resource
 * embedding, over the tables of tests/fixtures/postgrest-reads (a project of its own).
 */
let projectRoot: string;
let stack: RunningStack;

beforeAll(async () => {
  projectRoot = await mkdtemp(path.join(tmpdir(), 'devstack-postgrest-reads-'));
  await cp('tests/fixtures/postgrest-reads', projectRoot, { recursive: true });
  stack = await startStack({ projectRoot });
});

afterAll(async () => {
  await stack?.stop();
  await rm(projectRoot, { recursive: true, force: true });
});

async function read(pathAndQuery: string) {
  const response = await fetch(`${stack.apiUrl}/rest/v1/${pathAndQuery}`, {
    headers: { apikey: stack.anonKey },
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

const ids = async (pathAndQuery: string) => {
  const { status, body } = await read(`${pathAndQuery}&select=id&order=id`);
  expect(status).toBe(200);
  return (body as { id: number }[]).map((row) => row.id);
};

// PostgREST src/PostgREST/ApiRequest/QueryParams.hs (pOpExpr) and src/PostgREST/Query/SqlFragment.hs
// (simpleOperator, quantOperator, ftsOperator, pgFmtFilter).
describe('filter operators', () => {
  it.each([
    ['tags=cs.{pets}', [1, 2]],
    ['tags=cd.{pets,home,garden}', [1]],
    ['tags=ov.{walks,weather}', [2, 3]],
    ['during=sl.[10,20)', [1, 2]],
    ['during=sr.[1,10)', [3]],
    ['during=nxr.[1,6)', [1]],
    ['during=nxl.[5,6)', [2, 3]],
    ['during=adj.[10,20)', [2, 3]],
    ['body=isdistinct.A dog barks at the cat', [1, 3]],
    ['title=match.^[CD]', [1, 2]],
    ['title=imatch.^[cd]', [1, 2]],
    ['title=not.imatch.^c', [2, 3]],
    ['title=like(any).{C*,R*}', [1, 3]],
    ['title=ilike(all).{*a*,*t*}', [1]],
    ['id=gt(any).{1,2}', [2, 3]],
    ['id=eq(all).{1}', [1]],
  ])('%s keeps the rows PostgREST keeps', async (filter, expected) => {
    expect(await ids(`notes?${filter}`)).toEqual(expected);
  });

  it.each([
    ['body=fts(english).rats', [1]],
    ['body=fts(english).cats', [1, 2]],
    ['words=fts.cat', [1, 2]],
    ['body=plfts(english).fat cats', [1]],
    ['body=phfts(english).fat cat', [1]],
    ['body=wfts(english).cat -rats', [2]],
    // A null body is neither a match nor a non-match.
    ['body=not.fts(english).rats', [2]],
  ])(
    'full-text %s searches a text column as a tsvector of the same configuration',
    async (filter, expected) => {
      expect(await ids(`notes?${filter}`)).toEqual(expected);
    },
  );

  it('takes array values inside or=() whole', async () => {
    expect(await ids('notes?or=(tags.cs.{walks,pets},tags.cs.{weather})')).toEqual([2, 3]);
  });

  it('answers an unknown operator 400 PGRST100 naming the filter', async () => {
    const { status, body } = await read('notes?id=near.1');
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'PGRST100', message: expect.stringContaining('near.1') });
  });
});

// PostgREST src/PostgREST/ApiRequest/QueryParams.hs (pJsonPath), src/PostgREST/Plan.hs (lastJsonKey,
// to_jsonb for columns of other types) and src/PostgREST/Query/SqlFragment.hs (pgFmtJsonPath).
describe('JSON paths', () => {
  it('selects values inside JSON named after the last key, or an alias', async () => {
    const { status, body } = await read(
      'notes?select=id,data->owner->>name,first:data->items->0,data->items->1,meta->>colour&order=id',
    );
    expect(status).toBe(200);
    expect(body).toEqual([
      { id: 1, name: 'Ann', first: 10, items: 20, colour: 'grey' },
      { id: 2, name: 'Bob', first: 30, items: null, colour: 'brown' },
      { id: 3, name: null, first: null, items: null, colour: null },
    ]);
  });

  it('reads a column of another type as JSON (to_jsonb)', async () => {
    const { body } = await read('notes?select=tags->0&id=eq.1');
    expect(body).toEqual([{ tags: 'pets' }]);
  });

  it('filters and orders by a value inside JSON', async () => {
    expect(await ids('notes?data->owner->>name=eq.Bob')).toEqual([2]);
    expect(await ids('notes?data->n=gt.1')).toEqual([1, 3]);
    const { body } = await read('notes?select=id&order=data->n.desc');
    expect(body).toEqual([{ id: 3 }, { id: 1 }, { id: 2 }]);
  });

  it('casts a value inside JSON', async () => {
    const { body } = await read('notes?select=n:data->>n::int&id=eq.1');
    expect(body).toEqual([{ n: 2 }]);
  });
});
