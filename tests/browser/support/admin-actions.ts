import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Confirms the admin action waiting in its dialog (an approval, a rejection, a deposit, a status change
 * that moves money or is final), as an admin who has read who and how much it is for.
 */
export async function confirmAdminAction(page: Page, confirmLabel: string, reason = 'Checked by the admin') {
  const dialog = page.getByRole('dialog');
  // A rejection asks why: the person reads it.
  if (confirmLabel === 'Reject') await dialog.getByLabel('Reason (the person reads it)').fill(reason);
  await dialog.getByRole('button', { name: confirmLabel, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** Chooses a status in a row's dropdown, then applies it (choosing alone changes nothing). */
export async function applyStatus(row: Locator, status: string) {
  await row.getByRole('combobox').selectOption(status);
  await row.getByRole('button', { name: /^Apply: / }).click();
}
