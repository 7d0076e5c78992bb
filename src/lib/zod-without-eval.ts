/**
 * Zod probes `new Function` to compile faster parsers as it creates each object schema; under the app's
 * Content-Security-Policy (no eval) the probe is reported as a violation even though Zod falls back, so Zod
 * is told not to try. Zod keeps its settings in `globalThis.__zod_globalConfig` and adopts an object that is
 * already there when it loads, so the entry sets it first without loading Zod: the landing page (which
 * parses nothing) never carries Zod, and every schema made later sees the setting.
 */
export function configureZodWithoutEval(): void {
  const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
  // Set on Zod's own object when it has loaded already, so the setting is never lost.
  (scope.__zod_globalConfig ??= {}).jitless = true;
}
