// Runs inside Deno (not Node): loads one Edge Function and serves it on the port the gateway chose.
// Supabase functions call `Deno.serve(handler)`; here that call is redirected to 127.0.0.1:<port>.

type Handler = (request: Request, info: unknown) => Response | Promise<Response>;

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve: (...args: unknown[]) => unknown;
  stdin: { readable: ReadableStream<Uint8Array> };
  exit(code?: number): never;
};

const port = Number(Deno.env.get('DEVSTACK_FUNCTION_PORT'));
const entry = Deno.env.get('DEVSTACK_FUNCTION_ENTRY');
if (!port || !entry) throw new Error('DEVSTACK_FUNCTION_PORT and DEVSTACK_FUNCTION_ENTRY are required');

const serve = Deno.serve.bind(Deno);
Deno.serve = (...args: unknown[]) => {
  const options = args.find((arg): arg is { handler?: Handler } => typeof arg === 'object' && arg !== null);
  const handler = args.find((arg): arg is Handler => typeof arg === 'function') ?? options?.handler;
  if (!handler) throw new Error('Deno.serve was called without a handler');
  return serve(
    { port, hostname: '127.0.0.1', onListen: () => console.log('devstack-worker-ready') },
    handler,
  );
};

// The gateway holds our stdin open; when it goes away (even killed), stdin ends and so do we.
void (async () => {
  const reader = Deno.stdin.readable.getReader();
  while (!(await reader.read()).done);
  Deno.exit(0);
})();

await import(entry);

export {};
