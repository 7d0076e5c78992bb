import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { preparedTemplate, templateKey } from './template';

let root: string;
let projectRoot: string;

async function writeProjectFile(relative: string, content: string) {
  await mkdir(path.dirname(path.join(projectRoot, relative)), { recursive: true });
  await writeFile(path.join(projectRoot, relative), content);
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'coinvault-template-test-'));
  projectRoot = path.join(root, 'project');
  process.env.COINVAULT_TEMPLATES_DIR = path.join(root, 'templates');
  await writeProjectFile('supabase/config.toml', 'project_id = "x"\n');
  await writeProjectFile('supabase/migrations/20260101000000_first.sql', 'create table a (id int);\n');
  await writeProjectFile('supabase/seed.sql', 'insert into a values (1);\n');
});

afterEach(async () => {
  delete process.env.COINVAULT_TEMPLATES_DIR;
  await rm(root, { recursive: true, force: true });
});

describe('the template key', () => {
  it('stays the same while nothing that makes the database changes', async () => {
    expect(await templateKey({ projectRoot, seed: true })).toBe(
      await templateKey({ projectRoot, seed: true }),
    );
  });

  it('changes when a migration is edited, added or renamed', async () => {
    const first = await templateKey({ projectRoot, seed: true });
    await writeProjectFile('supabase/migrations/20260101000000_first.sql', 'create table a (id bigint);\n');
    const edited = await templateKey({ projectRoot, seed: true });
    await writeProjectFile('supabase/migrations/20260102000000_second.sql', 'create table b (id int);\n');
    const added = await templateKey({ projectRoot, seed: true });
    await rm(path.join(projectRoot, 'supabase/migrations/20260102000000_second.sql'));
    await writeProjectFile('supabase/migrations/20251231000000_second.sql', 'create table b (id int);\n');
    const reordered = await templateKey({ projectRoot, seed: true });
    expect(new Set([first, edited, added, reordered]).size).toBe(4);
  });

  it('changes with the seed when seeded, and not when unseeded', async () => {
    const seeded = await templateKey({ projectRoot, seed: true });
    const unseeded = await templateKey({ projectRoot, seed: false });
    await writeProjectFile('supabase/seed.sql', 'insert into a values (2);\n');
    expect(await templateKey({ projectRoot, seed: true })).not.toBe(seeded);
    expect(await templateKey({ projectRoot, seed: false })).toBe(unseeded);
    expect(unseeded).not.toBe(seeded);
  });

  it('changes with the project config', async () => {
    const before = await templateKey({ projectRoot, seed: true });
    await writeProjectFile('supabase/config.toml', 'project_id = "y"\n');
    expect(await templateKey({ projectRoot, seed: true })).not.toBe(before);
  });
});

describe('preparing a template', () => {
  const buildWith = (content: string, builds: string[]) => async (dataDir: string) => {
    builds.push(dataDir);
    await mkdir(dataDir);
    await writeFile(path.join(dataDir, 'PG_VERSION'), content);
  };

  it('builds once, then hands out the same folder without building again', async () => {
    const builds: string[] = [];
    const first = await preparedTemplate({ projectRoot, seed: true }, buildWith('17', builds));
    const again = await preparedTemplate({ projectRoot, seed: true }, buildWith('other', builds));
    expect(again).toBe(first);
    expect(builds).toHaveLength(1);
    expect(await readFile(path.join(first, 'PG_VERSION'), 'utf8')).toBe('17');
  });

  it('builds a new one after a migration changes', async () => {
    const builds: string[] = [];
    const before = await preparedTemplate({ projectRoot, seed: true }, buildWith('17', builds));
    await writeProjectFile('supabase/migrations/20260102000000_second.sql', 'create table b (id int);\n');
    const after = await preparedTemplate({ projectRoot, seed: true }, buildWith('17', builds));
    expect(after).not.toBe(before);
    expect(builds).toHaveLength(2);
  });

  it('two processes preparing at once both get one whole template, and no half-made folder is left', async () => {
    const builds: string[] = [];
    const [one, two] = await Promise.all([
      preparedTemplate({ projectRoot, seed: true }, buildWith('one', builds)),
      preparedTemplate({ projectRoot, seed: true }, buildWith('two', builds)),
    ]);
    // Both may build (when both looked before either began) or the second may wait for the first.
    expect(builds.length).toBeGreaterThanOrEqual(1);
    expect(two).toBe(one);
    expect(['one', 'two']).toContain(await readFile(path.join(one, 'PG_VERSION'), 'utf8'));
    const left = await readdir(process.env.COINVAULT_TEMPLATES_DIR ?? '');
    expect(left).toEqual([path.basename(path.dirname(one))]);
  });

  it("a build removes templates unused for a day and dead builders' staging folders, and keeps the rest", async () => {
    const templates = process.env.COINVAULT_TEMPLATES_DIR ?? '';
    const template = async (name: string, lastUsedHoursAgo: number) => {
      await mkdir(path.join(templates, name, 'data'), { recursive: true });
      const marker = path.join(templates, name, 'complete');
      await writeFile(marker, '');
      const then = new Date(Date.now() - lastUsedHoursAgo * 3_600_000);
      await utimes(marker, then, then);
    };
    await template('unused-for-two-days', 48);
    await template('used-an-hour-ago', 1);
    // No process has this pid (above Linux's highest), as after a builder was killed; ours is alive.
    await mkdir(path.join(templates, 'old.staging-99999999-0a1b2c3d'), { recursive: true });
    await mkdir(path.join(templates, `other.staging-${process.pid}-0a1b2c3d`), { recursive: true });
    await mkdir(path.join(templates, 'not-a-template'), { recursive: true });

    const built = await preparedTemplate({ projectRoot, seed: true }, buildWith('17', []));
    expect((await readdir(templates)).sort()).toEqual(
      [
        path.basename(path.dirname(built)),
        'used-an-hour-ago',
        `other.staging-${process.pid}-0a1b2c3d`,
        'not-a-template',
      ].sort(),
    );
  });

  it('a start that uses a template marks it as used now', async () => {
    const dataDir = await preparedTemplate({ projectRoot, seed: true }, buildWith('17', []));
    const marker = path.join(path.dirname(dataDir), 'complete');
    const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
    await utimes(marker, twoDaysAgo, twoDaysAgo);
    await preparedTemplate({ projectRoot, seed: true }, buildWith('17', []));
    expect(Date.now() - (await stat(marker)).mtimeMs).toBeLessThan(60_000);
  });

  it('a start while another live process builds the same template waits for that build instead of building', async () => {
    const templates = process.env.COINVAULT_TEMPLATES_DIR ?? '';
    const key = await templateKey({ projectRoot, seed: true });
    // Another builder, alive (this process's pid), half-way through; it finishes 600 ms later.
    const staging = path.join(templates, `${key}.staging-${process.pid}-0a1b2c3d`);
    await mkdir(path.join(staging, 'data'), { recursive: true });
    await writeFile(path.join(staging, 'data', 'PG_VERSION'), 'theirs');
    const finished = new Promise<void>((resolve) =>
      setTimeout(() => {
        void writeFile(path.join(staging, 'complete'), '')
          .then(() => rename(staging, path.join(templates, key)))
          .then(resolve);
      }, 600),
    );
    const builds: string[] = [];
    const dataDir = await preparedTemplate({ projectRoot, seed: true }, buildWith('ours', builds));
    await finished;
    expect(builds).toEqual([]);
    expect(await readFile(path.join(dataDir, 'PG_VERSION'), 'utf8')).toBe('theirs');
  });

  it('a failed build leaves nothing behind, and the next start builds again', async () => {
    const failing = async (dataDir: string) => {
      await mkdir(dataDir);
      throw new Error('migration failed');
    };
    await expect(preparedTemplate({ projectRoot, seed: true }, failing)).rejects.toThrow('migration failed');
    expect(await readdir(process.env.COINVAULT_TEMPLATES_DIR ?? '')).toEqual([]);
    const builds: string[] = [];
    const dataDir = await preparedTemplate({ projectRoot, seed: true }, buildWith('17', builds));
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  });
});
