import type { AuthContext } from './context';
import type { NotificationKind } from './mail-templates';
import { findUserById } from './users';

/**
 * GoTrue's account-change notifications (api/mail.go `sendPasswordChangedNotification`,
 * `sendEmailChangedNotification`): sent when `[auth.email.notification.<kind>] enabled`, to the address
 * that should hear of the change; a mail that cannot go (the `email_sent` budget) never fails the change.
 */
export async function notifyAccountChange(
  context: AuthContext,
  kind: NotificationKind,
  userId: string,
  /** `email_changed`: the address the change left, which is told. */
  oldEmail?: string,
) {
  if (!context.project.mailNotifications[kind]?.enabled) return;
  const user = await findUserById(context.pool, userId);
  const to = oldEmail ?? user?.email;
  if (!user || !to || !context.allowEmail('email_functions')) return;
  const { subject, html } = context.mailTemplates[`${kind}_notification`].render({
    SiteURL: context.project.siteUrl,
    Email: user.email,
    OldEmail: oldEmail,
    Data: user.raw_user_meta_data ?? {},
  });
  context.mailbox.send({ to: to.toLowerCase(), subject, html });
}
