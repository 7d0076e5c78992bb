import { toast } from 'sonner';

/** Copies `text` to the clipboard and says whether it worked (the browser may refuse). */
export async function copyWithToast(text: string, { copied, failed }: { copied: string; failed: string }) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(copied);
  } catch {
    toast.error(failed);
  }
}
