import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../../devstack/src/db/postgres';
import { startGateway, type RunningGateway } from '../../devstack/src/gateway/server';
import { signUpNewPerson } from '../support/api';

/**
 * A machine that has run `npm ci` and nothing else: an empty Deno cache, and HTTPS only through a proxy with its
 * own root certificate — here a proxy that is not even there, so any download would fail.
 */
const machineSettings = ['DENO_DIR', 'DENO_CERT', 'SSL_CERT_FILE', 'NODE_EXTRA_CA_CERTS'].concat(
  ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'].flatMap((name) => [name, name.toLowerCase()]),
);
const savedSettings = Object.fromEntries(machineSettings.map((name) => [name, process.env[name]]));
const caBundle = '/etc/ssl/certs/ca-certificates.crt';
let emptyDenoDir: string;
let unreachableProxy: string;
let gateways: RunningGateway[] = [];

function gatewayServing(functionsDir: string) {
  return startGateway({
    databaseUrl: inject('databaseUrl'),
    jwtSecret: inject('jwtSecret'),
    anonKey: inject('anonKey'),
    serviceRoleKey: inject('serviceRoleKey'),
    functionsDir,
  }).then((gateway) => {
    gateways.push(gateway);
    return gateway;
  });
}

beforeAll(async () => {
  emptyDenoDir = await mkdtemp(path.join(tmpdir(), 'coinvault-deno-dir-'));
  unreachableProxy = `http://127.0.0.1:${await freePort()}`;
  for (const name of machineSettings) Reflect.deleteProperty(process.env, name);
  Object.assign(process.env, {
    DENO_DIR: emptyDenoDir,
    HTTPS_PROXY: unreachableProxy,
    HTTP_PROXY: unreachableProxy,
    NO_PROXY: '127.0.0.1,localhost',
    NODE_EXTRA_CA_CERTS: caBundle,
  });
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.stop()));
  gateways = [];
  for (const [name, value] of Object.entries(savedSettings)) {
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  }
  await rm(emptyDenoDir, { recursive: true, force: true });
});

describe('Edge Functions on a fresh machine', () => {
  it('deploy with the npm versions they run locally: the import map names exactly what npm installed', async () => {
    const denoConfig = JSON.parse(await readFile('supabase/functions/deno.json', 'utf8')) as {
      imports: Record<string, string>;
    };
    const { '@domain/': domainModule, ...packages } = denoConfig.imports;
    // The one local mapping: the domain module the browser imports by the same prefix (vite.config.ts).
    expect(domainModule).toBe('../../packages/domain/');
    for (const [name, specifier] of Object.entries(packages)) {
      const installed = JSON.parse(await readFile(`node_modules/${name}/package.json`, 'utf8')) as {
        version: string;
      };
      expect(specifier).toBe(`npm:${name}@${installed.version}`);
    }
  });

  it('boot with an empty Deno cache and no network: their npm: imports come from what npm ci installed', async () => {
    expect(await readdir(emptyDenoDir)).toEqual([]);
    const gateway = await gatewayServing(path.resolve('supabase/functions'));
    // `withdrawals` imports zod and supabase-js; it can only answer its own refusal if both loaded.
    const response = await fetch(`${gateway.url}/functions/v1/withdrawals`, {
      method: 'POST',
      headers: { apikey: inject('anonKey'), Authorization: `Bearer ${inject('anonKey')}` },
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Sign in to continue' });
  });

  it("pass the machine's proxy and TLS trust settings to Deno, the extra root certificate as DENO_CERT", async () => {
    expect(existsSync(caBundle)).toBe(true);
    const gateway = await gatewayServing(path.resolve('tests/fixtures/functions'));
    const person = await signUpNewPerson();
    const response = await fetch(`${gateway.url}/functions/v1/network-settings`, {
      headers: { apikey: inject('anonKey'), Authorization: `Bearer ${person.accessToken}` },
    });
    expect(await response.json()).toEqual({
      DENO_CERT: caBundle,
      HTTPS_PROXY: unreachableProxy,
      HTTP_PROXY: unreachableProxy,
      NO_PROXY: '127.0.0.1,localhost',
      NODE_EXTRA_CA_CERTS: caBundle,
    });
  });
});
