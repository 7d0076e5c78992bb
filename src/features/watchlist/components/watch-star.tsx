import { StarIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';

/**
 * The star beside a coin: pressed when the coin is on the person's watchlist. A toggle button, so a
 * screen reader hears "Watch Bitcoin, toggle button, pressed".
 */
export function WatchStar({
  coinName,
  starred,
  onToggle,
}: {
  coinName: string;
  starred: boolean;
  onToggle: (starred: boolean) => void;
}) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      aria-label={`Watch ${coinName}`}
      aria-pressed={starred}
      onClick={() => onToggle(!starred)}
      className="text-muted-foreground size-9 shrink-0"
    >
      <StarIcon aria-hidden className={cn('size-4', starred && 'fill-amber-400 text-amber-500')} />
    </Button>
  );
}
