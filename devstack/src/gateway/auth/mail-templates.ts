import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseGoTemplate, TemplateError, type GoTemplate } from './go-template';

/** `[auth.email.template.<kind>]`, GoTrue's template types (internal/mailer/templatemailer/templatemailer.go). */
export const mailTemplateKinds = [
  'invite',
  'confirmation',
  'recovery',
  'magic_link',
  'email_change',
  'reauthentication',
] as const;
export type MailTemplateKind = (typeof mailTemplateKinds)[number];

export function isMailTemplateKind(name: string): name is MailTemplateKind {
  return (mailTemplateKinds as readonly string[]).includes(name);
}

/** A template as config.toml names it: a subject and a body file, each optional. */
export interface MailTemplateSetting {
  subject?: string;
  contentPath?: string;
}

/** GoTrue's defaults when a template sets no subject or no body (templatemailer.go). */
const defaults: Record<MailTemplateKind, { subject: string; body: string }> = {
  invite: {
    subject: "You've been invited",
    body: `<h2>You've been invited</h2>\n\n<p>You've been invited to create an account. Follow the link below to accept.</p>\n<p><a href="{{ .ConfirmationURL }}">Accept invitation</a></p>`,
  },
  confirmation: {
    subject: 'Confirm your email address',
    body: `<h2>Confirm your email address</h2>\n\n<p>Follow the link below to confirm this email address and finish signing up.</p>\n<p><a href="{{ .ConfirmationURL }}">Confirm email address</a></p>\n`,
  },
  recovery: {
    subject: 'Reset your password',
    body: `<h2>Reset your password</h2>\n\n<p>We received a request to reset your password. Follow the link below to choose a new one.</p>\n<p><a href="{{ .ConfirmationURL }}">Reset password</a></p>\n<p>If you didn't request this, you can safely ignore this email.</p>`,
  },
  magic_link: {
    subject: 'Your sign-in link',
    body: `<h2>Your sign-in link</h2>\n\n<p>Follow the link below to sign in. This link expires shortly and can only be used once.</p>\n<p><a href="{{ .ConfirmationURL }}">Sign in</a></p>`,
  },
  email_change: {
    subject: 'Confirm your new email address',
    body: `<h2>Confirm your new email address</h2>\n\n<p>Follow the link below to confirm {{ .NewEmail }} as your new email address.</p>\n<p><a href="{{ .ConfirmationURL }}">Confirm new email address</a></p>\n<p>If you didn't request this change, you can safely ignore this email.</p>`,
  },
  reauthentication: {
    subject: '{{ .Token }} is your verification code',
    body: `<h2>Your verification code</h2>\n\n<p>Use the code below to verify your identity. It expires shortly.</p>\n<p>{{ .Token }}</p>`,
  },
};

/** What GoTrue gives a template (templatemailer.go): `Data` is the person's user metadata. */
export interface MailTemplateData {
  SiteURL: string;
  Email: string;
  Data: Record<string, unknown>;
  ConfirmationURL?: string;
  Token?: string;
  TokenHash?: string;
  RedirectTo?: string;
  NewEmail?: string;
  SendingTo?: string;
}

export interface MailTemplate {
  render(data: MailTemplateData): { subject: string; html: string };
}
export type MailTemplates = Record<MailTemplateKind, MailTemplate>;

function parsed(source: string, where: string): GoTemplate {
  try {
    return parseGoTemplate(source);
  } catch (error) {
    if (error instanceof TemplateError) throw new Error(`${where}: ${error.message}`);
    throw error;
  }
}

/**
 * Every kind's subject and body, from config.toml's settings (a body file relative to the project's root,
 * as the Supabase CLI reads `content_path`) or GoTrue's default. A file that is missing or a template outside
 * the supported subset stops the stack at start, naming the setting.
 */
export async function loadMailTemplates(
  settings: Partial<Record<MailTemplateKind, MailTemplateSetting>>,
  projectRoot: string,
): Promise<MailTemplates> {
  const entries = await Promise.all(
    mailTemplateKinds.map(async (kind) => {
      const setting = settings[kind] ?? {};
      const table = `supabase/config.toml [auth.email.template.${kind}]`;
      const subject = parsed(setting.subject || defaults[kind].subject, `${table} subject`);
      let source = defaults[kind].body;
      if (setting.contentPath) {
        try {
          source = await readFile(path.resolve(projectRoot, setting.contentPath), 'utf8');
        } catch {
          throw new Error(`${table} content_path: cannot read ${setting.contentPath}`);
        }
      }
      const body = parsed(source, `${table} content_path ${setting.contentPath ?? '(default)'}`);
      const template: MailTemplate = {
        render: (data) => {
          const values = { ...data } as Record<string, unknown>;
          return { subject: subject.render(values), html: body.render(values) };
        },
      };
      return [kind, template] as const;
    }),
  );
  return Object.fromEntries(entries) as MailTemplates;
}
