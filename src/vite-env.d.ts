/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_SUPABASE_URL?: string;
  readonly VITE_SUPABASE_ANON_KEY?: string;
  readonly VITE_MARKET_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

interface Window {
  /**
   * Fetches the code of every page under an address prefix; false without the build's list
   * (src/app/head-scripts/route-preload.js).
   */
  preloadPagesUnder?: (prefix: string) => boolean;
}
