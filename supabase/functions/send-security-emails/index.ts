/**
 * POST /functions/v1/send-security-emails — sends the security e-mails waiting in the outbox (a password,
 * e-mail or two-factor change), each with its "this wasn't me" link, and answers `{ sent, failed }`. The one
 * seam through which the app sends mail: called with the service-role key by a schedule (Supabase Cron, every
 * minute), through a provider with Resend's `POST /emails` shape: `EMAIL_API_URL` (default Resend's), the
 * `EMAIL_API_KEY` secret, `EMAIL_FROM`, and `SITE_URL` for the link. The local stack points it at its mailbox.
 * An e-mail is marked sent only once the provider took it: a crash in between sends it again, never loses it.
 */
import { environment, HttpError, jsonResponse, serveJson, serviceClient } from '../_shared/http.ts';

interface SecurityEmail {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  not_me_token: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function message(email: SecurityEmail) {
  const notMeLink = `${environment('SITE_URL')}/not-me?token=${email.not_me_token}`;
  const warning = "If this wasn't you, lock your withdrawals at once:";
  const help = 'Then change your password and contact support.';
  return {
    from: Deno.env.get('EMAIL_FROM') || 'CoinVault <security@coinvault.example>',
    to: [email.recipient],
    subject: email.subject,
    text: `${email.body}\n\n${warning}\n${notMeLink}\n\n${help}\n`,
    html:
      `<p>${escapeHtml(email.body)}</p><p>${escapeHtml(warning)}<br>` +
      `<a href="${escapeHtml(notMeLink)}">${escapeHtml(notMeLink)}</a></p><p>${escapeHtml(help)}</p>`,
  };
}

async function send(email: SecurityEmail): Promise<void> {
  const providerUrl = Deno.env.get('EMAIL_API_URL') || 'https://api.resend.com';
  const response = await fetch(`${providerUrl}/emails`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${environment('EMAIL_API_KEY')}`,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(message(email)),
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`The e-mail provider answered ${response.status}`);
}

Deno.serve(
  serveJson('Failed to send the security e-mails', async (request) => {
    const token = /^Bearer (.+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    if (token !== environment('SUPABASE_SERVICE_ROLE_KEY')) {
      throw new HttpError(403, 'Only the scheduler sends security e-mails');
    }
    const database = serviceClient();
    const { data: pending, error } = await database.rpc('pending_security_emails');
    if (error) throw error;
    let sent = 0;
    let failed = 0;
    for (const email of pending) {
      try {
        await send(email);
      } catch (sendError) {
        // Left in the outbox for the next run; the others still go.
        console.error(sendError);
        failed += 1;
        continue;
      }
      const marked = await database.rpc('mark_security_email_sent', { email_id: email.id });
      if (marked.error) throw marked.error;
      sent += 1;
    }
    return jsonResponse(200, { sent, failed });
  }),
);
