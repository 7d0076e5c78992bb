import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startGateway, type GatewayOptions, type RunningGateway } from '../../devstack/src/gateway/server';
import { postAuth } from '../support/api';
import { createNodeClient } from '../support/node-client';

// GoTrue renders `[auth.email.template.<kind>]` with html/template and this data
// (internal/mailer/templatemailer/templatemailer.go ConfirmationMail, RecoveryMail).
const everyField = `<p>site {{ .SiteURL }} | to {{ .Email }} | code {{ .Token }} | hash {{ .TokenHash }}</p>
<p>back to {{ .RedirectTo }} | nickname {{ .Data.nickname }}{{ if .NewEmail }} | new {{ .NewEmail }}{{ end }}</p>
<p><a href="{{ .ConfirmationURL }}">confirm</a></p>`;

const generous = { limit: 100_000, windowMs: 60_000 };
let folder: string;
let templated: RunningGateway;
let plain: RunningGateway;

function gatewayOptions(project: GatewayOptions['project']): GatewayOptions {
  return {
    databaseUrl: inject('databaseUrl'),
    jwtSecret: inject('jwtSecret'),
    anonKey: inject('anonKey'),
    serviceRoleKey: inject('serviceRoleKey'),
    rateLimits: { signInSignUps: generous, tokenRefresh: generous, verify: generous, emailSent: generous },
    project,
  };
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'coinvault-templates-'));
  await writeFile(path.join(folder, 'every-field.html'), everyField);
  await writeFile(path.join(folder, 'looping.html'), '{{ range .Data }}{{ . }}{{ end }}');
  [templated, plain] = await Promise.all([
    startGateway(
      gatewayOptions({
        enableConfirmations: true,
        mailTemplates: {
          confirmation: {
            subject: 'Welcome {{ .Email }}',
            contentPath: path.join(folder, 'every-field.html'),
          },
        },
      }),
    ),
    startGateway(gatewayOptions({ enableConfirmations: true, mailTemplates: {} })),
  ]);
});
afterAll(async () => {
  await Promise.all([templated.stop(), plain.stop()]);
  await rm(folder, { recursive: true, force: true });
});

const newEmail = () => `template-${randomUUID()}@example.com`;

async function signUpOn(gateway: RunningGateway, email: string) {
  const { error } = await createNodeClient(gateway.url, inject('anonKey')).auth.signUp({
    email,
    password: 'long-enough-1',
    options: {
      data: { nickname: 'blue <heron>' },
      emailRedirectTo: 'http://localhost:5173/wallet',
    },
  });
  expect(error).toBeNull();
  const mail = gateway.mailbox.list(email).at(-1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail;
}

describe('[auth.email.template.confirmation] with subject and content_path', () => {
  it('renders every field GoTrue gives the template, escaped as html/template escapes', async () => {
    const email = newEmail();
    const mail = await signUpOn(templated, email);
    expect(mail.subject).toBe(`Welcome ${email}`);
    const hash = /hash ([0-9a-f]{56})</.exec(mail.html)?.[1];
    expect(mail.html).toContain(`site http://localhost:5173 | to ${email} | code `);
    expect(mail.html).toMatch(/code \d{6} \|/);
    expect(mail.html).toContain('back to http://localhost:5173/wallet | nickname blue &lt;heron&gt;</p>');
    expect(mail.html).not.toContain('| new');
    expect(mail.html).toContain(
      `<a href="${templated.url}/auth/v1/verify?token=${hash}&amp;type=signup&amp;`,
    );
    const link = new URL(mail.links.find((each) => each.includes('/auth/v1/verify')) ?? '');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      token: hash,
      type: 'signup',
      redirect_to: 'http://localhost:5173/wallet',
    });
  });

  it('mails a six-digit code ({{ .Token }}) that POST /verify takes with the address, once', async () => {
    const email = newEmail();
    const mail = await signUpOn(templated, email);
    const code = /code (\d{6})/.exec(mail.html)?.[1] ?? '';
    const wrongAddress = await postAuth(templated.url, '/verify', {
      type: 'signup',
      email: newEmail(),
      token: code,
    });
    expect(wrongAddress).toMatchObject({ status: 403, body: { code: 'otp_expired' } });
    const verified = await postAuth(templated.url, '/verify', { type: 'signup', email, token: code });
    expect(verified).toMatchObject({
      status: 200,
      body: { user: { email, email_confirmed_at: expect.any(String) } },
    });
    const again = await postAuth(templated.url, '/verify', { type: 'signup', email, token: code });
    expect(again).toMatchObject({ status: 403, body: { code: 'otp_expired' } });
  });

  it('mails the token hash ({{ .TokenHash }}) that POST /verify takes as token_hash', async () => {
    const email = newEmail();
    const mail = await signUpOn(templated, email);
    const tokenHash = /hash ([0-9a-f]{56})/.exec(mail.html)?.[1] ?? '';
    const verified = await postAuth(templated.url, '/verify', { type: 'signup', token_hash: tokenHash });
    expect(verified).toMatchObject({ status: 200, body: { user: { email } } });
  });
});

describe('without templates', () => {
  it("mails GoTrue's default subject and body", async () => {
    const mail = await signUpOn(plain, newEmail());
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.html).toMatch(
      /^<h2>Confirm your email address<\/h2>\n\n<p>Follow the link below to confirm this email address and finish signing up\.<\/p>\n<p><a href="[^"]+">Confirm email address<\/a><\/p>\n$/,
    );
    expect(mail.text).toContain(`Confirm email address: ${mail.links[0] ?? 'no link'}`);
  });
});

describe('a template the local stack cannot render', () => {
  it('stops the stack at start, naming the setting and the action', async () => {
    await expect(
      startGateway(
        gatewayOptions({ mailTemplates: { recovery: { contentPath: path.join(folder, 'looping.html') } } }),
      ),
    ).rejects.toThrow(
      /\[auth\.email\.template\.recovery\] content_path .*looping\.html: \{\{ range \.Data \}\} is not supported by the local stack/,
    );
  });

  it('stops the stack at start when the body file is missing', async () => {
    await expect(
      startGateway(
        gatewayOptions({ mailTemplates: { invite: { contentPath: './supabase/templates/none.html' } } }),
      ),
    ).rejects.toThrow(
      '[auth.email.template.invite] content_path: cannot read ./supabase/templates/none.html',
    );
  });
});
