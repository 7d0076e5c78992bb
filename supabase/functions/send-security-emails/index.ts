/**
 * POST /functions/v1/send-security-emails — sends the e-mails waiting in the outbox: security e-mails (a
 * password, e-mail or two-factor change, a new sign-in, the address book's changes), each with its "this wasn't
 * me" link, and fired price alerts (no such link); each with, where it has one, its own link (a new
 * destination's cancel link, the price alerts page), and answers
 * `{ sent, failed }`. The one seam through which the app sends mail: called with the service-role key by a
 * schedule (Supabase Cron, every 30 s), through a provider with Resend's `POST /emails` shape: `EMAIL_API_URL`
 * (default Resend's), the `EMAIL_API_KEY` secret, `EMAIL_FROM`, and `SITE_URL` for the link. The local stack
 * points it at its mailbox.
 * Two calls at once never send a mail twice: each claims its own mails (claim_security_emails, a five-minute
 * lease). A mail is marked sent only once the provider took it; a crash in between sends it again after the
 * lease, with the same Idempotency-Key, which the provider uses to drop the repeat.
 */
import { environment, jsonResponse, requireScheduler, serveJson, serviceClient } from '../_shared/http.ts';

interface SecurityEmail {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  /** Null for a mail about no change to the account (a price alert): it has no "this wasn't me" link. */
  not_me_token: string | null;
  action_text: string | null;
  action_path: string | null;
  /** The person's own phrase (Settings), at the top of every mail so a phishing one without it stands out. */
  anti_phishing_phrase: string | null;
}

/** The same words as the Auth templates' (supabase/templates/). */
const phraseWarning =
  'An e-mail that claims to be from CoinVault without this phrase is not from us: do not follow its links.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The "this wasn't me" link and what to do after it, in text and HTML; empty for a mail without it. */
function notMeBlock(token: string | null) {
  if (!token) return { text: '', html: '' };
  const notMeLink = `${environment('SITE_URL')}/not-me?token=${token}`;
  const warning = "If this wasn't you, lock your withdrawals at once:";
  const help = 'Then change your password and contact support.';
  return {
    text: `${warning}\n${notMeLink}\n\n${help}\n`,
    html:
      `<p>${escapeHtml(warning)}<br><a href="${escapeHtml(notMeLink)}">${escapeHtml(notMeLink)}</a></p>` +
      `<p>${escapeHtml(help)}</p>`,
  };
}

function message(email: SecurityEmail) {
  const site = environment('SITE_URL');
  // The e-mail's own link (a new destination's cancel link) comes first: it is what the mail is about.
  const action =
    email.action_text && email.action_path
      ? { text: email.action_text, link: `${site}${email.action_path}` }
      : undefined;
  const actionText = action ? `${action.text}\n${action.link}\n\n` : '';
  const actionHtml = action
    ? `<p>${escapeHtml(action.text)}<br><a href="${escapeHtml(action.link)}">${escapeHtml(action.link)}</a></p>`
    : '';
  const phrase = email.anti_phishing_phrase;
  const phraseText = phrase ? `Your anti-phishing phrase: ${phrase}\n${phraseWarning}\n\n` : '';
  const phraseHtml = phrase
    ? `<p style="border:1px solid #d4d4d8;padding:8px 12px">Your anti-phishing phrase: <strong>${escapeHtml(phrase)}</strong><br>${escapeHtml(phraseWarning)}</p>`
    : '';
  const notMe = notMeBlock(email.not_me_token);
  return {
    from: Deno.env.get('EMAIL_FROM') || 'CoinVault <security@coinvault.example>',
    to: [email.recipient],
    subject: email.subject,
    text: `${phraseText}${email.body}\n\n${actionText}${notMe.text}`,
    html: `${phraseHtml}<p>${escapeHtml(email.body)}</p>${actionHtml}${notMe.html}`,
  };
}

async function send(email: SecurityEmail): Promise<void> {
  const providerUrl = Deno.env.get('EMAIL_API_URL') || 'https://api.resend.com';
  const response = await fetch(`${providerUrl}/emails`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${environment('EMAIL_API_KEY')}`,
      'Content-Type': 'application/json',
      'Idempotency-Key': `security-email/${email.id}`,
    },
    body: JSON.stringify(message(email)),
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`The e-mail provider answered ${response.status}`);
}

/** As many as claim_security_emails claims at once. */
const CLAIM_SIZE = 20;
/** A run stops claiming after this long, well inside an Edge Function's wall-clock limit. */
const DRAIN_MILLISECONDS = 20_000;

async function sendBatch(database: ReturnType<typeof serviceClient>) {
  const { data: claimed, error } = await database.rpc('claim_security_emails');
  if (error) throw error;
  const outcomes = await Promise.all(
    claimed.map(async (email) => {
      try {
        await send(email);
      } catch (sendError) {
        // Back in the outbox for the next run; the others still go.
        console.error(sendError);
        const released = await database.rpc('release_security_email', { email_id: email.id });
        if (released.error) console.error(released.error);
        return 'failed';
      }
      const marked = await database.rpc('mark_security_email_sent', { email_id: email.id });
      // Unmarked, it is sent again after the lease, and the provider drops it by its key.
      if (marked.error) throw marked.error;
      return 'sent';
    }),
  );
  const sent = outcomes.filter((outcome) => outcome === 'sent').length;
  return { claimed: claimed.length, sent, failed: outcomes.length - sent };
}

Deno.serve(
  serveJson('Failed to send the security e-mails', async (request) => {
    requireScheduler(request, 'Only the scheduler sends security e-mails');
    const database = serviceClient();
    let sent = 0;
    let failed = 0;
    // A backlog (many sign-ins since the last run) is drained batch after batch, not 20 a run; a refusal by the
    // provider ends the run, so a mail given back is not claimed again at once.
    const drainUntil = Date.now() + DRAIN_MILLISECONDS;
    for (;;) {
      const batch = await sendBatch(database);
      sent += batch.sent;
      failed += batch.failed;
      if (batch.claimed < CLAIM_SIZE || batch.failed > 0 || Date.now() > drainUntil) break;
    }
    return jsonResponse(200, { sent, failed });
  }),
);
