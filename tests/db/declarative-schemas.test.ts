import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Catalog, catalogDifferences, readCatalog } from '../support/catalog';
import {
  buildDatabase,
  dropDatabase,
  migrationFiles,
  schemaFileDefining,
  schemaFiles,
} from '../support/declarative-schemas';

// Two fresh databases on the test server, each on the platform bootstrap: one from supabase/migrations
// (the history), one from supabase/schemas (the current definition of every object).
const suffix = randomBytes(4).toString('hex');
const fromMigrations = `from_migrations_${suffix}`;
const fromSchemas = `from_schemas_${suffix}`;
let migrated: Catalog;
let declared: Catalog;

async function catalogOf(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await readCatalog(client);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  const server = inject('databaseUrl');
  // One after the other: the bootstrap alters the shared roles, which two sessions cannot do at once.
  const migrationsUrl = await buildDatabase(server, fromMigrations, await migrationFiles());
  const schemasUrl = await buildDatabase(server, fromSchemas, await schemaFiles()).catch((error: Error) => {
    throw new Error(
      `${error.message}\nThe schema files run in name order (supabase/config.toml, [db.migrations] schema_paths): ` +
        'what an object needs must be defined in its own or an earlier file.',
      { cause: error },
    );
  });
  [migrated, declared] = await Promise.all([catalogOf(migrationsUrl), catalogOf(schemasUrl)]);
});

afterAll(async () => {
  const server = inject('databaseUrl');
  await Promise.all([dropDatabase(server, fromMigrations), dropDatabase(server, fromSchemas)]);
});

/** What to do about one difference, for the engineer whose new migration the schemas do not say yet. */
async function withAdvice(difference: string) {
  const object = difference.slice(0, difference.indexOf(': '));
  const file =
    (await schemaFileDefining(object)) ?? 'supabase/schemas/<area>.sql (its area; a new area is a new file)';
  if (difference.endsWith(': only in the migrations')) {
    return `${difference}: add its current definition to ${file}`;
  }
  if (difference.endsWith(': only in the schemas')) {
    return `${difference}: a migration must create it too, or ${file} must not`;
  }
  return `${difference}: write its current definition (as the newest migration leaves it) in ${file}`;
}

describe('the declarative schemas', () => {
  it('define the same database as the migrations: every table, column, view, function, policy, grant, trigger, index, type, comment and publication entry', async () => {
    const differences = await Promise.all(catalogDifferences(migrated, declared).map(withAdvice));
    expect(
      differences,
      'supabase/schemas and supabase/migrations disagree (docs/architecture.md, "Changing the database")',
    ).toEqual([]);
  });

  it("are compared object by object: both databases hold the project's functions, policies and grants", () => {
    const objects = [...migrated.keys()];
    expect(objects).toContain('function public.approve_buy_request(uuid,uuid)');
    expect(objects.filter((object) => object.startsWith('policy ')).length).toBeGreaterThan(20);
    expect(migrated.get('table public.transactions')?.acl).toMatch(/authenticated=r\//);
  });

  it('name each object that differs and how', () => {
    const changed: Catalog = new Map(migrated);
    const approve = 'function public.approve_buy_request(uuid,uuid)';
    changed.set(approve, { ...migrated.get(approve), body: 'begin\nend' });
    changed.delete('table public.watchlist');
    expect(catalogDifferences(migrated, changed)).toEqual([
      expect.stringMatching(
        /^function public\.approve_buy_request\(uuid,uuid\): body differs \(from line 1: /,
      ),
      'table public.watchlist: only in the migrations',
    ]);
  });
});
