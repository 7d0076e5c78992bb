import { Agent, request } from 'node:http';
import { retryingShed } from './retry-shed';

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
    /** `get`, asked again while the gateway sheds it under load (see `retryingShed`). */
    getServed: (url: string, headers: Record<string, string> = {}) => retryingShed(() => get(url, headers)),
    close: () => agent.destroy(),
  };
}

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}
