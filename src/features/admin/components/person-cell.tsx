import { TableCell } from '@/components/ui/table';

/** Whose row it is: the name, and the e-mail under it, cut short (full text on hover) so the table fits. */
export function PersonCell({ name, email }: { name: string; email: string }) {
  return (
    <TableCell>
      <span className="block max-w-48 truncate font-medium" title={name}>
        {name || '—'}
      </span>
      <span className="text-muted-foreground block max-w-48 truncate text-xs" title={email}>
        {email}
      </span>
    </TableCell>
  );
}
