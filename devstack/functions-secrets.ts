import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

/**
 * The Edge Functions' secrets for the local stack: `supabase/functions/.env` (git-ignored), which the
 * gateway adds to every function's environment, as `supabase secrets set` does in production.
 */
export const functionsEnvFile = new URL('../supabase/functions/.env', import.meta.url).pathname;

export interface FunctionSecrets {
  /** 32 random bytes as hex: wraps every withdrawal's data key (docs/architecture.md §3). */
  withdrawalMasterKey: string;
}

function readSecret(text: string, name: string): string | undefined {
  return text.match(new RegExp(`^\\s*${name}\\s*=\\s*['"]?([^'"\\s]+)['"]?\\s*$`, 'm'))?.[1];
}

/**
 * Reads the secrets, first writing a fresh random `WITHDRAWAL_MASTER_KEY` when there is none. An existing
 * key is never replaced: requests encrypted under it would no longer decrypt.
 */
export async function ensureFunctionSecrets(file = functionsEnvFile): Promise<FunctionSecrets> {
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  const found = readSecret(existing, 'WITHDRAWAL_MASTER_KEY');
  if (found) return { withdrawalMasterKey: found };
  const withdrawalMasterKey = randomBytes(32).toString('hex');
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await writeFile(file, `${existing}${separator}WITHDRAWAL_MASTER_KEY=${withdrawalMasterKey}\n`, {
    mode: 0o600,
  });
  return { withdrawalMasterKey };
}
