import type { IncomingMessage, ServerResponse } from 'node:http';
import { headerValue, readBody, sendJson } from './http';
import type { Mailbox } from './mailbox';

/*
 * The mail stand-in: `/mailbox` lists what Auth and the functions sent, `/mail-provider/emails` is the
 * functions' e-mail provider (Resend's `POST /emails`). Both hold sign-in and recovery links, so they
 * answer the developer only, as Supabase's Inbucket is reached only from the developer's own machine.
 */

const loopbackHostnames = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/** The hostname of a `Host` header (`name`, `name:port`, `[v6]:port`). */
function hostnameOf(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
}

/**
 * Whether a request comes from the developer: sent from this machine, addressed to a loopback name or
 * address (`Host`: a page of another site that a DNS rebinding pointed at 127.0.0.1 still sends its own
 * name), and, when a browser says which page sent it, sent by a page of the gateway's own origin (`Origin`,
 * or `Sec-Fetch-Site` for requests that carry no `Origin`: a same-origin GET of a rebound page).
 */
export function isDeveloperRequest(request: IncomingMessage, ownUrl: string): boolean {
  const address = request.socket.remoteAddress ?? '';
  if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(address)) return false;
  if (!loopbackHostnames.test(hostnameOf(headerValue(request, 'host') ?? ''))) return false;
  const origin = headerValue(request, 'origin');
  if (origin !== undefined) {
    const own = new URL(ownUrl);
    const sender = URL.canParse(origin) ? new URL(origin) : undefined;
    return (
      sender !== undefined &&
      sender.port === own.port &&
      loopbackHostnames.test(sender.hostname) &&
      sender.protocol === own.protocol
    );
  }
  const site = headerValue(request, 'sec-fetch-site');
  return site === undefined || site === 'same-origin' || site === 'none';
}

/**
 * Resend's idempotency keys: a repeat of `POST /emails` with the `Idempotency-Key` of a mail accepted in the
 * last 24 hours answers that mail's id and sends nothing (resend.com/docs/dashboard/emails/idempotency-keys).
 */
const idempotencyWindowMs = 24 * 60 * 60 * 1000;

/** A provider-shaped mail (`{from, to, subject, text, html}`) into the mailbox: the answer's status and body. */
function acceptProviderMail(
  body: Buffer,
  mailbox: Mailbox,
  idempotencyKey: string | undefined,
  acceptedByKey: Map<string, { id: string; at: number }>,
): [number, unknown] {
  const earlier = idempotencyKey === undefined ? undefined : acceptedByKey.get(idempotencyKey);
  if (earlier && Date.now() - earlier.at < idempotencyWindowMs) return [200, { id: earlier.id }];
  let mail: { to?: unknown; subject?: unknown; text?: unknown; html?: unknown };
  try {
    mail = JSON.parse(body.toString('utf8')) as typeof mail;
  } catch {
    return [422, { message: 'The body must be JSON' }];
  }
  const recipients = (Array.isArray(mail.to) ? mail.to : [mail.to]).filter((to) => typeof to === 'string');
  if (recipients.length === 0 || typeof mail.subject !== 'string' || typeof mail.text !== 'string')
    return [422, { message: '`to`, `subject` and `text` are required' }];
  const ids = recipients.map((to) =>
    mailbox.send({
      to: to.toLowerCase(),
      subject: mail.subject as string,
      text: mail.text as string,
      html: typeof mail.html === 'string' ? mail.html : '',
    }),
  );
  if (idempotencyKey !== undefined && ids[0] !== undefined) {
    // Keys older than the window are forgotten, so a long `npm start` does not keep every key.
    for (const [key, accepted] of acceptedByKey) {
      if (Date.now() - accepted.at >= idempotencyWindowMs) acceptedByKey.delete(key);
    }
    acceptedByKey.set(idempotencyKey, { id: ids[0], at: Date.now() });
  }
  return [200, { id: ids[0] }];
}

/** The stand-in's two paths; `handle` answers `false` for any other path. */
export function createMailStandIn({ mailbox, ownUrl }: { mailbox: Mailbox; ownUrl: string }) {
  const providerMailByKey = new Map<string, { id: string; at: number }>();

  async function handle(
    request: IncomingMessage,
    response: ServerResponse,
    requestUrl: URL,
  ): Promise<boolean> {
    const pathname = requestUrl.pathname;
    if (pathname === '/mailbox') {
      if (!isDeveloperRequest(request, ownUrl))
        sendJson(response, 403, { message: 'The mailbox answers only same-origin requests on loopback' });
      else sendJson(response, 200, mailbox.list(requestUrl.searchParams.get('to') ?? undefined));
      return true;
    }
    if (pathname === '/mail-provider/emails') {
      if (!isDeveloperRequest(request, ownUrl))
        sendJson(response, 403, { message: 'The mail provider answers only requests on loopback' });
      else if (request.method !== 'POST') sendJson(response, 405, { message: 'Use POST' });
      else {
        const [status, body] = acceptProviderMail(
          await readBody(request, 1_000_000),
          mailbox,
          headerValue(request, 'idempotency-key'),
          providerMailByKey,
        );
        sendJson(response, status, body);
      }
      return true;
    }
    return false;
  }

  return { handle };
}
