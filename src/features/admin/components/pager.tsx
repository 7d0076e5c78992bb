import { ChevronLeftIcon, ChevronRightIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { ADMIN_PAGE_SIZE } from '../api/paging';

/**
 * Previous/next for a server-paginated list, with where the shown rows sit in the whole list. On a phone the
 * parts wrap as wholes (the rows shown above the buttons), never a number from its words.
 */
export function Pager({
  page,
  total,
  held,
  onPageChange,
  label,
}: {
  page: number;
  total: number;
  /** Rows of this page held back behind a live list's "N new": not counted until they are shown. */
  held: number;
  onPageChange: (page: number) => void;
  /** What the list holds, for the navigation landmark's name. */
  label: string;
}) {
  const shownTotal = total - held;
  const pageCount = Math.max(1, Math.ceil(shownTotal / ADMIN_PAGE_SIZE));
  const first = shownTotal === 0 ? 0 : page * ADMIN_PAGE_SIZE + 1;
  const last = Math.min(total, (page + 1) * ADMIN_PAGE_SIZE) - held;
  return (
    <nav
      aria-label={`${label} pages`}
      className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm"
    >
      <p className="text-muted-foreground whitespace-nowrap tabular-nums" aria-live="polite">
        {first}–{last} of {shownTotal.toLocaleString()}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPageChange(page - 1)}>
          <ChevronLeftIcon aria-hidden />
          Previous
        </Button>
        <span className="whitespace-nowrap tabular-nums">
          Page {page + 1} of {pageCount.toLocaleString()}
        </span>
        <Button
          variant="outline"
          size="sm"
          disabled={page + 1 >= pageCount}
          onClick={() => onPageChange(page + 1)}
        >
          Next
          <ChevronRightIcon aria-hidden />
        </Button>
      </div>
    </nav>
  );
}
