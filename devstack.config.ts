import { randomBytes } from 'node:crypto';
import { buildApp } from './devstack/src/app-server';
import { defineDevstackConfig } from './devstack/src/project';
import { createMarketSimulator } from './stubs/market-simulator/simulator';
import { seededAccounts } from './supabase/seed-accounts';

/**
 * What CoinVault plugs into the local stack (devstack/README.md, "Another project"): the rest is
 * supabase/config.toml, supabase/migrations, supabase/seed.sql and supabase/functions.
 */
export default defineDevstackConfig({
  // The market function's provider (CoinGecko) is the one outside party; locally a simulator stands in.
  upstreams: {
    simulator: { create: () => createMarketSimulator(), env: 'COINGECKO_API_URL', basePath: '/api/v3' },
  },
  // Wraps every withdrawal's data key (docs/architecture.md §3): 32 random bytes as hex.
  functionSecrets: { WITHDRAWAL_MASTER_KEY: () => randomBytes(32).toString('hex') },
  // Supabase Cron's job (docs/deploying.md): the security e-mail outbox goes out within 30 s, so a
  // "this wasn't me" link arrives while it still matters. Test stacks run no schedule unless they ask.
  schedules: {
    'send-security-emails': { function: 'send-security-emails', everySeconds: 30 },
    // Seals journal entries that writers queued while the chain's head was busy (docs/architecture.md,
    // "The journal"), so the unsealed window after a burst of money steps lasts about a second.
    'ledger-seal': { function: 'ledger-seal', everySeconds: 1 },
    // The daily checkpoint of the books (docs/architecture.md, "Proof of liabilities").
    'ledger-checkpoint': { function: 'ledger-checkpoint', everySeconds: 86_400 },
    // Recurring buys run at a minute's precision (docs/deploying.md).
    'run-recurring-buys': { function: 'run-recurring-buys', everySeconds: 60 },
  },
  seededAccounts,
  buildApp,
});
