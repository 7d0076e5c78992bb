import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DevstackProject } from './project';

/**
 * The Edge Functions' secrets for the local stack: the project's `supabase/functions/.env` (git-ignored),
 * which the gateway adds to every function's environment, as `supabase secrets set` does in production.
 */
export function functionsEnvFile(projectRoot: string): string {
  return path.join(projectRoot, 'supabase/functions/.env');
}

function readSecret(text: string, name: string): string | undefined {
  return text.match(new RegExp(`^\\s*${name}\\s*=\\s*['"]?([^'"\\s]+)['"]?\\s*$`, 'm'))?.[1];
}

/**
 * Reads the secrets the project names (`functionSecrets` in devstack.config.ts), first writing a fresh value
 * for each one missing. An existing value is never replaced: what was sealed under a key must stay readable.
 */
export async function ensureFunctionSecrets({
  root,
  config,
}: DevstackProject): Promise<Record<string, string>> {
  const file = functionsEnvFile(root);
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const secrets: Record<string, string> = {};
  const added: string[] = [];
  for (const [name, generate] of Object.entries(config.functionSecrets ?? {})) {
    const found = readSecret(existing, name);
    secrets[name] = found ?? generate();
    if (!found) added.push(`${name}=${secrets[name]}\n`);
  }
  if (added.length > 0) {
    const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
    await writeFile(file, `${existing}${separator}${added.join('')}`, { mode: 0o600 });
  }
  return secrets;
}
