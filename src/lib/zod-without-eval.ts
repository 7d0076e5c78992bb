/**
 * Zod probes `new Function` to compile faster parsers; under the app's Content-Security-Policy (no eval)
 * the probe is reported as a violation even though Zod falls back, so Zod is told not to try. Loaded on
 * its own, so the landing page (which parses nothing) does not carry Zod in its first chunk.
 */
export async function configureZodWithoutEval(): Promise<void> {
  const { config } = await import('zod/v4/core');
  config({ jitless: true });
}
