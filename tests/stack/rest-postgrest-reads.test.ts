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

// PostgREST src/PostgREST/Plan.hs (findRel), src/PostgREST/SchemaCache.hs (relationships from foreign keys,
// many-to-many through a junction whose primary key holds both keys) and src/PostgREST/Query/QueryBuilder.hs
// (getJoin: a lateral subquery per embedded table, json_agg for to-many, row_to_json for to-one).
describe('resource embedding', () => {
  it('embeds the row a foreign key points to as an object, by table or by column name', async () => {
    expect(await read('books?select=title,authors!author_id(name)&order=id')).toEqual({
      status: 200,
      body: [
        { title: 'First', authors: { name: 'Ann' } },
        { title: 'Second', authors: { name: 'Ann' } },
      ],
    });
    expect((await read('books?select=title,writer:author_id(name)&id=eq.2')).body).toEqual([
      { title: 'Second', writer: { name: 'Ann' } },
    ]);
  });

  it('answers a null object when the foreign key is null', async () => {
    expect((await read('books?select=id,editor:authors!books_editor_id_fkey(name)&order=id')).body).toEqual([
      { id: 1, editor: { name: 'Bob' } },
      { id: 2, editor: null },
    ]);
  });

  it('embeds the rows pointing back as an array, empty when there are none, with their own filters and order', async () => {
    const answer = await read(
      'authors?select=name,books!author_id(title)&order=id&books.order=title.desc&books.title=neq.Nothing',
    );
    expect(answer).toEqual({
      status: 200,
      body: [
        { name: 'Ann', books: [{ title: 'Second' }, { title: 'First' }] },
        // Bob's only book is hidden: row-level security runs inside the embedding too.
        { name: 'Bob', books: [] },
        { name: 'Cy', books: [] },
      ],
    });
    expect(
      (await read('authors?select=name,books!author_id(title)&id=eq.1&books.limit=1&books.order=id')).body,
    ).toEqual([{ name: 'Ann', books: [{ title: 'First' }] }]);
  });

  it('embeds through a junction table (many-to-many) and nests embeddings', async () => {
    expect(
      (await read('books?select=title,genres(name),covers(colour)&order=id&genres.order=name')).body,
    ).toEqual([
      { title: 'First', genres: [{ name: 'Crime' }, { name: 'Poetry' }], covers: { colour: 'red' } },
      { title: 'Second', genres: [{ name: 'Crime' }], covers: null },
    ]);
    expect((await read('genres?select=name,books(title,authors!author_id(name))&id=eq.1')).body).toEqual([
      { name: 'Poetry', books: [{ title: 'First', authors: { name: 'Ann' } }] },
    ]);
  });

  // PostgREST src/PostgREST/SchemaCache.hs (allComputedRels): `rows 1` or no set makes it to-one.
  it('embeds the rows a function of the row returns (a computed relationship)', async () => {
    expect(
      (
        await read(
          'authors?select=name,written_books(title),latest_book(title)&order=id&written_books.order=id',
        )
      ).body,
    ).toEqual([
      {
        name: 'Ann',
        written_books: [{ title: 'First' }, { title: 'Second' }],
        latest_book: { title: 'Second' },
      },
      { name: 'Bob', written_books: [], latest_book: null },
      { name: 'Cy', written_books: [], latest_book: null },
    ]);
  });

  it('keeps only the rows whose embedding matched with !inner', async () => {
    expect((await read('authors?select=name,books!author_id!inner(title)&order=id')).body).toEqual([
      { name: 'Ann', books: [{ title: 'First' }, { title: 'Second' }] },
    ]);
    expect(
      (await read('books?select=title,authors!author_id!inner()&authors.name=eq.Ann&order=id')).body,
    ).toEqual([{ title: 'First' }, { title: 'Second' }]);
  });

  // PostgREST src/PostgREST/Query/QueryBuilder.hs names each subquery `<parent>_<name>_1`: Postgres refuses it twice.
  it('answers 400 42712 when one name is embedded twice without aliases', async () => {
    expect(await read('books?select=authors!author_id(name),authors!editor_id(name)')).toEqual({
      status: 400,
      body: {
        code: '42712',
        message: 'table name "books_authors_1" specified more than once',
        details: null,
        hint: null,
      },
    });
  });

  it('names an unknown column of an embedded table by its alias, as Postgres does under PostgREST', async () => {
    expect(await read('authors?select=name,books!author_id(sum)')).toEqual({
      status: 400,
      body: { code: '42703', message: 'column books_1.sum does not exist', details: null, hint: null },
    });
  });

  it('answers 300 PGRST201 naming each relationship when two foreign keys lead to the table', async () => {
    expect(await read('books?select=title,authors(name)')).toEqual({
      status: 300,
      body: {
        code: 'PGRST201',
        message: "Could not embed because more than one relationship was found for 'books' and 'authors'",
        details: [
          {
            cardinality: 'many-to-one',
            embedding: 'books with authors',
            relationship: 'books_author_id_fkey using books(author_id) and authors(id)',
          },
          {
            cardinality: 'many-to-one',
            embedding: 'books with authors',
            relationship: 'books_editor_id_fkey using books(editor_id) and authors(id)',
          },
        ],
        hint: "Try changing 'authors' to one of the following: 'authors!books_author_id_fkey', 'authors!books_editor_id_fkey'. Find the desired relationship in the 'details' key.",
      },
    });
  });

  // The hint: Error.hs `noRelBetweenHint`, the closest table that has relationships (fuzzyset, at least 0.33).
  it('answers 400 PGRST200 when no relationship leads to the table', async () => {
    expect(await read('notes?select=id,authors(name)')).toEqual({
      status: 400,
      body: {
        code: 'PGRST200',
        message: "Could not find a relationship between 'notes' and 'authors' in the schema cache",
        details:
          "Searched for a foreign key relationship between 'notes' and 'authors' in the schema 'public', but no matches were found.",
        hint: "Perhaps you meant 'genres' instead of 'notes'.",
      },
    });
  });
});

// PostgREST src/PostgREST/Query/SqlFragment.hs (asJsonF): one row unwrapped, `coalesce(json_agg(…)->0, 'null')`.
describe('a function returning one row', () => {
  it('answers the row as an object, and null when a filter leaves none', async () => {
    expect(await read('rpc/first_book?select=title')).toEqual({ status: 200, body: { title: 'First' } });
    expect(await read('rpc/first_book?select=title&id=eq.999')).toEqual({ status: 200, body: null });
  });
});
