import { Agent, request } from 'node:http';

/**
 * HTTP GETs sent from one loopback address (Linux answers all of 127.0.0.0/8), so a test or bench can be
 * several callers as the stack sees them: by the connection's address, never by a header a caller writes.
 */
export function callerAt(localAddress: string) {
  const agent = new Agent({ keepAlive: true, localAddress });
  const get = (url: string, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve, reject) => {
      const outgoing = request(url, { agent, headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(answer.headers)) {
            if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          resolve({ status: answer.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString() });
        });
        answer.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  return {
    get,
    /**
     * `get`, sent again after `Retry-After` while the gateway answers 503 (busy: its event loop late on a
     * loaded machine), as the app's client retries: the answer the caller is served in the end.
     */
    async getServed(url: string, headers: Record<string, string> = {}, attempts = 5): Promise<Answer> {
      for (let attempt = 1; ; attempt++) {
        const answer = await get(url, headers);
        const retryAfter = answer.headers.get('retry-after');
        if (answer.status !== 503 || retryAfter === null || attempt === attempts) return answer;
        await new Promise((resolve) => setTimeout(resolve, Number(retryAfter) * 1000));
      }
    },
    close: () => agent.destroy(),
  };
}

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}
