import { configureZodWithoutEval } from './zod-without-eval';

describe("Zod's settings under the app's Content-Security-Policy", () => {
  it('are set before Zod loads, and Zod adopts them: no schema probes eval', async () => {
    configureZodWithoutEval();
    const { config } = await import('zod/v4/core');
    expect(config().jitless).toBe(true);
  });
});
