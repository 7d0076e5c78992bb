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

/**
 * `[auth.email.notification.<kind>]` the stack sends (GoTrue's `*_changed_notification` templates, off by
 * default); the other kinds stop the stack at start when enabled.
 */
export const notificationKinds = ['password_changed', 'email_changed'] as const;
export type NotificationKind = (typeof notificationKinds)[number];

export function isNotificationKind(name: string): name is NotificationKind {
  return (notificationKinds as readonly string[]).includes(name);
}

/** A template's name as GoTrue's templatemailer.go has it. */
type TemplateName = MailTemplateKind | `${NotificationKind}_notification`;

/** A template as config.toml names it: a subject and a body file, each optional. */
export interface MailTemplateSetting {
  subject?: string;
  contentPath?: string;
}

/** `[auth.email.notification.<kind>]`: a template that is sent only when `enabled`. */
export interface NotificationSetting extends MailTemplateSetting {
  enabled: boolean;
}

/** GoTrue's defaults when a template sets no subject or no body (templatemailer.go). */
const defaults: Record<TemplateName, { subject: string; body: string }> = {
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
  password_changed_notification: {
    subject: 'Your password was changed',
    body: `<h2>Your password was changed</h2>\n\n<p>The password for your account was recently changed.</p>\n<p>If you didn't make this change, reset your password and contact support immediately.</p>\n`,
  },
  email_changed_notification: {
    subject: 'Your email address was changed',
    body: `<h2>Your email address was changed</h2>\n\n<p>The email address for your account was changed from {{ .OldEmail }} to {{ .Email }}.</p>\n<p>If you didn't make this change, contact support immediately.</p>\n`,
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
  /** The address an e-mail change left (`email_changed` notification). */
  OldEmail?: string;
}

export interface MailTemplate {
  render(data: MailTemplateData): { subject: string; html: string };
}
export type MailTemplates = Record<TemplateName, MailTemplate>;

function parsed(source: string, where: string): GoTemplate {
  try {
    return parseGoTemplate(source);
  } catch (error) {
    if (error instanceof TemplateError) throw new Error(`${where}: ${error.message}`);
    throw error;
  }
}

/** One template from its setting (a body file relative to the project's root) or GoTrue's default. */
async function loadTemplate(
  name: TemplateName,
  setting: MailTemplateSetting,
  table: string,
  projectRoot: string,
): Promise<MailTemplate> {
  const subject = parsed(setting.subject || defaults[name].subject, `${table} subject`);
  let source = defaults[name].body;
  if (setting.contentPath) {
    try {
      source = await readFile(path.resolve(projectRoot, setting.contentPath), 'utf8');
    } catch {
      throw new Error(`${table} content_path: cannot read ${setting.contentPath}`);
    }
  }
  const body = parsed(source, `${table} content_path ${setting.contentPath ?? '(default)'}`);
  return {
    render: (data) => {
      const values = { ...data } as Record<string, unknown>;
      return { subject: subject.render(values), html: body.render(values) };
    },
  };
}

/**
 * Every kind's subject and body, and the notifications', from config.toml's settings (as the Supabase CLI
 * reads `content_path`) or GoTrue's default. A file that is missing or a template outside the supported
 * subset stops the stack at start, naming the setting.
 */
export async function loadMailTemplates(
  settings: Partial<Record<MailTemplateKind, MailTemplateSetting>>,
  projectRoot: string,
  notifications: Partial<Record<NotificationKind, NotificationSetting>> = {},
): Promise<MailTemplates> {
  const entries = await Promise.all([
    ...mailTemplateKinds.map(
      async (kind) =>
        [
          kind,
          await loadTemplate(
            kind,
            settings[kind] ?? {},
            `supabase/config.toml [auth.email.template.${kind}]`,
            projectRoot,
          ),
        ] as const,
    ),
    ...notificationKinds.map(
      async (kind) =>
        [
          `${kind}_notification` as const,
          await loadTemplate(
            `${kind}_notification`,
            notifications[kind] ?? {},
            `supabase/config.toml [auth.email.notification.${kind}]`,
            projectRoot,
          ),
        ] as const,
    ),
  ]);
  return Object.fromEntries(entries) as MailTemplates;
}
