import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { importBoundariesRule } from './eslint/import-boundaries.js';

// Import boundaries (bulletproof-react) by the imported file's path, so a relative import cannot walk around them.
const boundaries = {
  rules: {
    'import-boundaries': importBoundariesRule({
      root: fileURLToPath(new URL('.', import.meta.url)),
      aliases: { '@/': 'src/', '@domain/': 'packages/domain/' },
    }),
  },
};

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      '.data',
      '.tmp',
      'test-results',
      'playwright-report',
      'supabase/types/database.ts',
    ],
  },
  {
    extends: [js.configs.recommended, ...tseslint.configs.strict],
    files: ['**/*.{ts,tsx}'],
    // Deno lints the Edge Functions (`npm run lint:functions`); ESLint checks only their import boundaries.
    ignores: ['supabase/functions/**'],
    languageOptions: { ecmaVersion: 2022, globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks, 'react-refresh': reactRefresh },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-refresh/only-export-components': ['warn', { allowConstantExport: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'devstack/**/*.ts', 'packages/**/*.ts', 'supabase/functions/**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { boundaries },
    rules: { 'boundaries/import-boundaries': 'error' },
  },
  {
    files: ['src/components/ui/**/*.tsx', 'src/app/**/*.tsx'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
);
