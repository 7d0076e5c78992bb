import path from 'node:path';
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import { importBoundariesRule } from './import-boundaries.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = '/project';
const rule = importBoundariesRule({ root, aliases: { '@/': 'src/', '@domain/': 'packages/domain/' } });
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } });
const at = (file: string) => path.join(root, file);

tester.run('import-boundaries', rule, {
  valid: [
    { filename: at('src/features/buy/components/buy-form.tsx'), code: "import { x } from '../api/create';" },
    { filename: at('src/features/buy/components/buy-form.tsx'), code: "import { cn } from '@/lib/utils';" },
    { filename: at('src/features/buy/components/buy-form.tsx'), code: "import { z } from 'zod';" },
    { filename: at('src/app/router.tsx'), code: "import { BuyPage } from '@/features/buy/components/page';" },
    { filename: at('src/types/database.ts'), code: "export * from '../../supabase/types/database';" },
    { filename: at('devstack/src/gateway/server.ts'), code: "import { x } from '../db/postgres';" },
    { filename: at('src/features/withdraw/types.ts'), code: "import { s } from '@domain/withdrawal.ts';" },
    {
      filename: at('supabase/functions/withdrawals/index.ts'),
      code: "import { s } from '@domain/withdrawal.ts';",
    },
    {
      filename: at('supabase/functions/withdrawals/index.ts'),
      code: "import { h } from '../_shared/http.ts';",
    },
    {
      filename: at('supabase/functions/_shared/http.ts'),
      code: "import { D } from '../../types/database.ts';",
    },
    { filename: at('packages/domain/withdrawal.ts'), code: "import { a } from './amounts.ts';" },
  ],
  invalid: [
    {
      filename: at('src/features/buy/components/buy-form.tsx'),
      code: "import { x } from '../../wallet/api/get-balance';",
      errors: [
        { message: 'A feature does not import another feature: move shared code to components/ or lib/.' },
      ],
    },
    {
      filename: at('src/features/buy/components/buy-form.tsx'),
      code: "import { x } from '@/features/wallet/api/get-balance';",
      errors: [
        { message: 'A feature does not import another feature: move shared code to components/ or lib/.' },
      ],
    },
    {
      filename: at('src/features/buy/index.ts'),
      code: "export { router } from '../../app/router';",
      errors: [{ message: 'Features do not import the app layer.' }],
    },
    {
      filename: at('src/lib/format.ts'),
      code: "const page = import('../features/admin/components/users-page');",
      errors: [{ message: 'Shared code does not import features or the app.' }],
    },
    {
      filename: at('devstack/src/gateway/server.ts'),
      code: "import { createClient } from '../../../src/lib/supabase';",
      errors: [
        {
          message:
            'The local stack knows nothing of the app: devstack/ imports no app code (the app plugs in through devstack.config.ts).',
        },
      ],
    },
    {
      filename: at('src/features/withdraw/api/create.ts'),
      code: "import { encrypt } from '../../../../supabase/functions/_shared/withdrawal-crypto';",
      errors: [
        {
          message:
            'The app does not import Edge Function code: what both use lives in the domain module, packages/domain/.',
        },
      ],
    },
    {
      filename: at('src/features/withdraw/components/withdraw-form.tsx'),
      code: "import { s } from '../../../../supabase/functions/_shared/withdrawal-schema.ts';",
      errors: [
        {
          message:
            'The app does not import Edge Function code: what both use lives in the domain module, packages/domain/.',
        },
      ],
    },
    {
      filename: at('devstack/src/gateway/server.ts'),
      code: "import { s } from '../../../packages/domain/statuses.ts';",
      errors: [
        {
          message:
            'The local stack knows nothing of the app: devstack/ imports no app code (the app plugs in through devstack.config.ts).',
        },
      ],
    },
    {
      filename: at('devstack/src/gateway/server.ts'),
      code: "import { createMarketSimulator } from '../../../stubs/market-simulator/simulator';",
      errors: [
        {
          message:
            'The local stack knows nothing of the app: devstack/ imports no app code (the app plugs in through devstack.config.ts).',
        },
      ],
    },
    {
      filename: at('supabase/functions/withdrawals/index.ts'),
      code: "import { formatUsd } from '../../../src/lib/format.ts';",
      errors: [
        {
          message:
            'Edge Functions import from outside supabase/functions/ only the domain module and the generated types.',
        },
      ],
    },
    {
      filename: at('packages/domain/limits.ts'),
      code: "import { formatUsd } from '@/lib/format';",
      errors: [
        {
          message:
            'The domain module imports nothing but zod and itself, so the browser and Deno load it alike.',
        },
      ],
    },
  ],
});
