import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * The mailbox holds sign-in and recovery links, so only the developer reads it, as Supabase's Inbucket is
 * reached only from the developer's own machine: a request addressed to a loopback name (not a rebound
 * DNS name) and, when a browser names the sending page, from the gateway's own origin.
 */
const apiUrl = new URL(inject('apiUrl'));
const subject = `Recovery link ${randomUUID()}`;

/** `GET /mailbox` with exactly these headers (node:http, which lets a caller write `Host`). */
function getMailbox(headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port: apiUrl.port, path: '/mailbox', headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

beforeAll(async () => {
  const sent = await fetch(`${apiUrl.origin}/mail-provider/emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      to: 'someone@example.com',
      subject,
      text: 'http://localhost:5173/reset#token=secret',
    }),
  });
  expect(sent.status).toBe(200);
});

describe('the mailbox answers the developer only', () => {
  it('answers a request addressed to a loopback name or address, with the mail in it', async () => {
    for (const host of [`localhost:${apiUrl.port}`, `127.0.0.1:${apiUrl.port}`, `[::1]:${apiUrl.port}`]) {
      const answer = await getMailbox({ Host: host });
      expect(answer.status).toBe(200);
      expect(answer.body).toContain(subject);
    }
  });

  it('refuses a page that DNS rebinding pointed at this machine: its Host is its own name', async () => {
    // The rebound page is same-origin for the browser, so Origin and Sec-Fetch-Site say nothing wrong.
    const rebound = await getMailbox({
      Host: `rebound.example:${apiUrl.port}`,
      'Sec-Fetch-Site': 'same-origin',
    });
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain(subject);
  });

  it('refuses a page of another site, even one on localhost (the app on another port)', async () => {
    const host = `localhost:${apiUrl.port}`;
    const sentByAnotherPage: Record<string, string>[] = [
      { Host: host, Origin: 'https://evil.example' },
      { Host: host, Origin: 'http://localhost:5173' },
      { Host: host, 'Sec-Fetch-Site': 'same-site' },
      { Host: host, 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of sentByAnotherPage) {
      const answer = await getMailbox(headers);
      expect(answer.status).toBe(403);
      expect(answer.body).not.toContain(subject);
    }
  });
});
