import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { headersFile, securityHeaders, type AppOrigins } from './devstack/src/app-server';
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

/** The origins the built app talks to, from the same variables src/config/env.ts reads. */
function appOrigins(mode: string): AppOrigins {
  const env = loadEnv(mode, process.cwd(), 'VITE_');
  const supabaseUrl = env.VITE_SUPABASE_URL || 'http://127.0.0.1:54321';
  return { supabaseUrl, marketApiUrl: env.VITE_MARKET_API_URL || undefined };
}

/** Writes `dist/_headers`: the security headers a static host sends (and the local app server reads). */
function securityHeadersFile(origins: AppOrigins): Plugin {
  return {
    name: 'coinvault-security-headers',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(origins) });
    },
  };
}

export default defineConfig(({ command, mode }) => {
  // A build is what gets deployed: it must name its Supabase project (the local defaults are for dev and tests).
  if (command === 'build')
    requireBuildEnvironment({ ...loadEnv(mode, process.cwd(), 'VITE_'), ...process.env });
  return {
    plugins: [react(), tailwindcss(), securityHeadersFile(appOrigins(mode))],
    resolve: {
      alias: {
        ...(command === 'build' ? reactRouterProductionBuild : {}),
        '@': fileURLToPath(new URL('./src', import.meta.url)),
        // The domain module the Edge Functions import too (supabase/functions/deno.json maps the same prefix).
        '@domain': fileURLToPath(new URL('./packages/domain', import.meta.url)),
      },
    },
    build: {
      // Every browser Vite 8 targets by default (Baseline widely available) supports modulepreload.
      modulePreload: { polyfill: false },
    },
    // The dev server injects an inline script (React Refresh) and talks to its HMR WebSocket, so it gets every
    // header but the Content-Security-Policy; `vite preview` serves the build with the full policy.
    server: { port: 5173, strictPort: true, headers: securityHeaders(appOrigins(mode), { csp: false }) },
    preview: { port: 5173, strictPort: true, headers: securityHeaders(appOrigins(mode)) },
  };
});
