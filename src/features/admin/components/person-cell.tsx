import { FilterIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { TableCell } from '@/components/ui/table';

/**
 * Whose row it is: the name, and the e-mail under it, cut short (full text on hover) so the table fits;
 * with `onOnlyThisPerson`, a button that narrows the list to this person's rows.
 */
export function PersonCell({
  name,
  email,
  onOnlyThisPerson,
}: {
  name: string;
  email: string;
  onOnlyThisPerson?: () => void;
}) {
  return (
    <TableCell>
      <div className="flex items-center gap-1">
        <div className="min-w-0">
          <span className="block max-w-32 truncate font-medium" title={name}>
            {name || '—'}
          </span>
          <span className="text-muted-foreground block max-w-32 truncate text-xs" title={email}>
            {email}
          </span>
        </div>
        {onOnlyThisPerson && (
          <Button
            size="icon"
            variant="ghost"
            title="Only this person's rows"
            aria-label={`Only ${name || email}'s rows`}
            onClick={onOnlyThisPerson}
          >
            <FilterIcon aria-hidden />
          </Button>
        )}
      </div>
    </TableCell>
  );
}
