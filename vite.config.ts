import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, loadEnv, type Plugin, type Rolldown } from 'vite';
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
      this.emitFile({ type: 'asset', fileName: '_headers', source: headersFile(origins, headScriptTexts) });
    },
  };
}

/**
 * The scripts index.html runs before anything paints (src/app/head-scripts), in its order. Each is
 * written into the page rather than fetched: as files they were requests of their own, and the chunks
 * route-preload.js asks for waited for its round trip. The Content-Security-Policy allows exactly these
 * texts, by their hashes.
 */
const headScripts = ['theme-before-paint', 'route-preload'].map((name) => {
  const file = `src/app/head-scripts/${name}.js`;
  const text = readFileSync(fileURLToPath(new URL(`./${file}`, import.meta.url)), 'utf8');
  return { name, tag: `<script src="/${file}"></script>`, text, inline: `<script>${text}</script>` };
});
const headScriptTexts = headScripts.map(({ text }) => text);
const inlineRoutePreload = headScripts.find(({ name }) => name === 'route-preload')?.inline ?? '';

/** Writes each of `headScripts` into index.html in place of its tag (the dev server's page too). */
function headScriptsInline(): Plugin {
  return {
    name: 'coinvault-head-scripts',
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        for (const { tag, inline } of headScripts) {
          if (!html.includes(tag)) throw new Error(`index.html must load ${tag}`);
          html = html.replace(tag, () => inline);
        }
        return html;
      },
    },
  };
}

const routesDir = fileURLToPath(new URL('./src/app/routes/', import.meta.url));

/** The modules src/lib/session-client.ts loads. */
const sessionClientModules = /[\\/]src[\\/]lib[\\/](supabase|session-refresh|query-client)\.ts$/;

/**
 * The address of a route module (its path under src/app/routes, without extension): a folder with a
 * `layout` is an area (`user/layout` is `/user`, `user/wallet` is `/user/wallet`); other folders only group
 * files (`auth/login` is `/login`).
 */
function routePath(module: string, areas: ReadonlySet<string>): string {
  const [folder, name] = module.includes('/') ? module.split('/') : [undefined, module];
  if (folder && areas.has(folder)) return name === 'layout' ? `/${folder}` : `/${folder}/${name}`;
  return `/${name}`;
}

/**
 * Writes into index.html, as data, which chunks each route's first render needs beyond the entry's:
 * its route module and everything that imports, and for pages that read server data the router's
 * `QueryScope`. `src/app/head-scripts/route-preload.js` fetches them for the address being opened while
 * the entry script loads, instead of one round trip after it has run; and, for a browser that stores a
 * session, the session client's. Files are listed once and routes name them by index, which keeps the
 * page small.
 */
function routeChunksList(): Plugin {
  return {
    name: 'coinvault-route-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return html;
        const chunks = new Map<string, Rolldown.OutputChunk>();
        for (const output of Object.values(bundle))
          if (output.type === 'chunk') chunks.set(output.fileName, output);
        const closure = (fileName: string, found = new Set<string>([fileName])): Set<string> => {
          for (const imported of chunks.get(fileName)?.imports ?? [])
            if (!found.has(imported)) closure(imported, found.add(imported));
          return found;
        };
        const loadedWithEntry = closure(entry.fileName);
        const lazyChunks = [...chunks.values()].filter((chunk) => !loadedWithEntry.has(chunk.fileName));
        // A chunk may hold several route modules (a page's first-load chunk holds its route's module).
        const queryScope = lazyChunks.find((chunk) =>
          chunk.moduleIds.some((id) => id.endsWith('/src/lib/query-scope.tsx')),
        );
        const queryScopeFiles = queryScope ? closure(queryScope.fileName) : new Set<string>();
        const routeModules = lazyChunks.flatMap((chunk) =>
          chunk.moduleIds.flatMap((id) =>
            id.startsWith(routesDir)
              ? [{ chunk, module: id.slice(routesDir.length).replace(/\.tsx?$/, '') }]
              : [],
          ),
        );
        const areas = new Set(
          routeModules.flatMap(({ module }) =>
            module.endsWith('/layout') ? [module.split('/')[0] ?? ''] : [],
          ),
        );
        const files: string[] = [];
        const indexOf = (file: string) => (files.includes(file) ? files.indexOf(file) : files.push(file) - 1);
        // What `loadSessionClient` loads (supabase-js, the session refresh, the server-data cache), which the
        // entry asks for as it runs whenever a session is stored: fetched beside the entry instead.
        const sessionFiles = new Set(
          lazyChunks
            .filter((chunk) => chunk.moduleIds.some((id) => sessionClientModules.test(id)))
            .flatMap((chunk) => [...closure(chunk.fileName)]),
        );
        const session = [...sessionFiles].filter((file) => !loadedWithEntry.has(file)).map(indexOf);
        const routes: Record<string, number[]> = {};
        for (const { chunk, module } of routeModules) {
          const needed = closure(chunk.fileName);
          // The router renders a page that reads server data inside QueryScope, loaded beside the page.
          if ([...queryScopeFiles].some((file) => file !== queryScope?.fileName && needed.has(file)))
            queryScopeFiles.forEach((file) => needed.add(file));
          routes[routePath(module, areas)] = [...needed]
            .filter((file) => !loadedWithEntry.has(file))
            .map(indexOf);
        }
        // Before the script that reads it (a tag Vite injects would land after it, or before the charset).
        if (!html.includes(inlineRoutePreload)) throw new Error('index.html must run route-preload.js');
        const list = JSON.stringify({ files, routes, session });
        return html.replace(
          inlineRoutePreload,
          () =>
            `<script type="application/json" id="route-chunks">${list}</script>\n    ${inlineRoutePreload}`,
        );
      },
    },
  };
}

/** The module graph as Rolldown's chunking sees it (its `ChunkingContext`). */
interface ModuleGraph {
  getModuleInfo(id: string): { importers: readonly string[]; dynamicImporters: readonly string[] } | null;
}

/** The lazily loaded modules (route modules and others) whose static imports reach `id`. */
function lazyOwnersOf(id: string, graph: ModuleGraph): Set<string> {
  const owners = new Set<string>();
  const seen = new Set<string>([id]);
  const queue = [id];
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    const info = graph.getModuleInfo(next);
    if (!info) continue;
    if (info.dynamicImporters.length > 0) owners.add(next);
    for (const importer of info.importers) {
      if (seen.has(importer)) continue;
      seen.add(importer);
      queue.push(importer);
    }
  }
  return owners;
}

/**
 * The pages whose first load is budgeted (bench/lighthouse), most shared first: each gets one chunk of
 * the code its route modules need beyond the entry, instead of one chunk per set of pages sharing a
 * module (the wallet's first load was 41 requests, /login's 17: on slow 4G, a round trip per six).
 * What the wallet shares with admin pages is a chunk apart, which an admin's first load carries
 * without the rest of the user area; what it shares with the sign-in pages (UI primitives, icons) is
 * another, so the wallet never loads the sign-in forms (and their form libraries). Each budgeted route's
 * own module is in its chunk too: a request less per route.
 */
const walletRoutes = ['user/layout', 'user/wallet'];
const firstLoadChunks: { name: string; routes: string[]; sharedWith?: string[] }[] = [
  { name: 'shared-ui', routes: ['auth/login', 'auth/signup'], sharedWith: walletRoutes },
  { name: 'sign-in-pages', routes: ['auth/login', 'auth/signup'] },
  { name: 'signed-in', routes: walletRoutes, sharedWith: ['admin/'] },
  { name: 'user-area', routes: walletRoutes },
];

/**
 * Icons and UI primitives (and their libraries): small, many, and needed by pages and shared loaders alike.
 * Not tslib, which Supabase's client needs too: the session client would load a page's chunk for it.
 */
const widgets =
  /node_modules[\\/](lucide-react|@radix-ui|@floating-ui|react-remove-scroll[^\\/]*|react-style-singleton|aria-hidden|use-[^\\/]+|get-nonce|detect-node-es)[\\/]|[\\/]src[\\/]components[\\/]ui[\\/]/;

/**
 * The first-load chunk a module goes to: that of the first budgeted page needing it, when only route
 * modules need it or it is a widget. Other code a shared loader also needs (the session client, the
 * toaster, the server-data cache) stays apart, so loading that never brings a page's code with it.
 */
function firstLoadChunkName(id: string, graph: ModuleGraph): string | null {
  if (!id.startsWith(routesDir) && (graph.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0) return null;
  const owners = [...lazyOwnersOf(id, graph)];
  const routes = owners.flatMap((owner) =>
    owner.startsWith(routesDir) ? [owner.slice(routesDir.length).replace(/\.tsx?$/, '')] : [],
  );
  if (routes.length < owners.length && !widgets.test(id)) return null;
  const chunk = firstLoadChunks.find(
    ({ routes: wanted, sharedWith }) =>
      wanted.some((route) => routes.includes(route)) &&
      (!sharedWith || routes.some((route) => sharedWith.some((prefix) => route.startsWith(prefix)))),
  );
  return chunk?.name ?? null;
}

/**
 * The files a budgeted page's first load runs nearly all of (the entry, the server-data cache, the session
 * client, the page kit and the first-load chunks above), marked for V8's explicit compile hints (Chrome 136:
 * `//# allFunctionsCalledOnLoad` as a file's first line): their functions compile as the file streams in,
 * off the main thread, instead of one by one on the main thread at their first call, during the first
 * render. Lighthouse's returning wallet, 2 interleaved rounds of 5 runs: the main thread's work before the
 * largest paint went from 441 and 361 ms to 335 and 344 ms. Lazy pages' files stay lazily compiled: most
 * of an admin page's code never runs on a person's visit. Placed after every other plugin's output (Vite
 * writes its preload helper at the top of a chunk), the source map moved down the one line.
 */
function compileHints(): Plugin {
  const firstLoadFiles = new Set([
    'server-state',
    'session-client',
    'page-kit',
    ...firstLoadChunks.map(({ name }) => name),
  ]);
  return {
    name: 'coinvault-compile-hints',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk' || !(file.isEntry || firstLoadFiles.has(file.name))) continue;
          file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
          // The source map (with --sourcemap) is already its own file by now: its lines move down one.
          const map = bundle[`${file.fileName}.map`];
          if (map?.type === 'asset' && typeof map.source === 'string') {
            const parsed = JSON.parse(map.source) as { mappings: string };
            map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
          }
        }
      },
    },
  };
}

export default defineConfig(({ command, mode }) => {
  // A build is what gets deployed: it must name its Supabase project (the local defaults are for dev and
  // tests).
  if (command === 'build')
    requireBuildEnvironment({ ...loadEnv(mode, process.cwd(), 'VITE_'), ...process.env });
  return {
    plugins: [
      react(),
      tailwindcss(),
      headScriptsInline(),
      securityHeadersFile(appOrigins(mode)),
      routeChunksList(),
      compileHints(),
    ],
    resolve: {
      alias: {
        ...(command === 'build' ? reactRouterProductionBuild : {}),
        '@': fileURLToPath(new URL('./src', import.meta.url)),
        // The domain module the Edge Functions import too (supabase/functions/deno.json maps the same
        // prefix).
        '@domain': fileURLToPath(new URL('./packages/domain', import.meta.url)),
      },
    },
    build: {
      // Every browser Vite 8 targets by default (Baseline widely available) supports modulepreload.
      modulePreload: { polyfill: false },
      // Each library the forms use, and the server-data cache, in one chunk rather than one per module: a
      // page's first render waits for fewer requests (Lighthouse's slow-4G /login had 25, one round trip per
      // six). Only the matched modules: with their dependencies (React) the groups would join the landing
      // page's load.
      rolldownOptions: {
        output: {
          codeSplitting: {
            includeDependenciesRecursively: false,
            groups: [
              // What the entry imports, in the entry's file: Rolldown otherwise made 15 more files of the
              // modules lazy pages share with it, each a request before any page paints.
              { name: 'app', tags: ['$initial'] },
              { name: 'forms', test: /node_modules[\\/](zod|react-hook-form|@hookform)[\\/]/ },
              // The server-data cache with the app's one client, its timers and its scope, which every user
              // of them loads; and with it the requests' time-out and Auth's error classes, which the session
              // client and the sign-in forms (both users of the cache) read: as a file of their own (1 KiB),
              // they were the wallet's seventh chunk, which waited for one of the six connections the
              // browser opens to a server without HTTP/2.
              {
                name: 'server-state',
                test: /node_modules[\\/](@tanstack[\\/]|@supabase[\\/]auth-js[\\/]dist[\\/]module[\\/]lib[\\/]errors\.js)|[\\/]src[\\/]lib[\\/](query-(client\.ts|scope\.tsx)|coalesced-timeouts\.ts|request-timeout\.ts)$/,
              },
              // The session client in one file (supabase-js and the libraries only it uses, the session
              // refresh, two-factor authentication and Realtime helpers): as five, each was a round trip of the
              // wallet's first load. Not Auth's error classes, which the sign-in forms read without it: a module
              // both groups match goes to the one named first, the server-data cache.
              {
                name: 'session-client',
                test: /node_modules[\\/](@supabase[\\/]|tslib[\\/]|iceberg-js[\\/])|[\\/]src[\\/]lib[\\/](supabase|session-refresh|two-factor|realtime|table-changes)\.ts$/,
              },
              // Small helpers the sign-in forms and the signed-in pages share (error and loading states,
              // toasts and the toaster, the clipboard), in one file rather than five of 0.2–1 KiB, each a
              // request.
              {
                name: 'page-kit',
                test: /[\\/]src[\\/](components[\\/](error-message|query-state|ui[\\/]toaster)\.tsx|lib[\\/]clipboard\.ts)$|node_modules[\\/]sonner[\\/]/,
              },
              { name: firstLoadChunkName, debugName: 'first-load' },
            ],
          },
        },
      },
    },
    // The dev server injects an inline script (React Refresh) and talks to its HMR WebSocket, so it gets
    // every header but the Content-Security-Policy; `vite preview` serves the build with the full policy.
    server: { port: 5173, strictPort: true, headers: securityHeaders(appOrigins(mode), { csp: false }) },
    preview: {
      port: 5173,
      strictPort: true,
      headers: securityHeaders(appOrigins(mode), { inlineScripts: headScriptTexts }),
    },
  };
});
