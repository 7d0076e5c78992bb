import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv } from 'vite';
import { requireBuildEnvironment } from './src/config/build-environment.ts';

/**
 * react-router's package exports resolve to its development build even in production builds (its dev
 * warnings included), remix-run/react-router#14102; point production builds at its production files.
 */
const reactRouterProductionBuild = {
  'react-router/dom': fileURLToPath(
    new URL('./node_modules/react-router/dist/production/dom-export.mjs', import.meta.url),
  ),
  'react-router': fileURLToPath(
    new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url),
  ),
};

export default defineConfig(({ command, mode }) => {
  // A build is what gets deployed: it must name its Supabase project (the local defaults are for dev and tests).
  if (command === 'build')
    requireBuildEnvironment({ ...loadEnv(mode, process.cwd(), 'VITE_'), ...process.env });
  return {
    plugins: [react(), tailwindcss()],
    resolve: {
      alias: {
        ...(command === 'build' ? reactRouterProductionBuild : {}),
        '@': fileURLToPath(new URL('./src', import.meta.url)),
        // Code shared with the Edge Functions (one withdrawal schema for form and server).
        '@functions': fileURLToPath(new URL('./supabase/functions', import.meta.url)),
      },
      // @supabase/auth-ui-react ships its own React 18 copy; two Reacts break hooks, so use ours.
      dedupe: ['react', 'react-dom'],
    },
    build: {
      // Every browser Vite 8 targets by default (Baseline widely available) supports modulepreload.
      modulePreload: { polyfill: false },
    },
    server: { port: 5173, strictPort: true },
    preview: { port: 5173, strictPort: true },
  };
});
