import { useEffect } from 'react';
import { company } from '@/config/company';

/** Names the page in the browser tab (and history, bookmarks, a screen reader's arrival), app name last. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · ${company.name}`;
  }, [title]);
}
