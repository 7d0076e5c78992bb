import { toast } from 'sonner';
import type { PendingAdminAction } from './confirm-action-dialog';

/** Runs an admin action and says how it went: its success message, or the error's own words. */
export async function runAdminAction({
  run,
  successMessage,
}: Pick<PendingAdminAction, 'run' | 'successMessage'>) {
  try {
    await run();
    toast.success(successMessage);
  } catch (error) {
    toast.error(error instanceof Error ? error.message : String(error));
  }
}
