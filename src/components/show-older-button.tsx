import { Button } from '@/components/ui/button';

/** Below a paged list: loads the next page of older rows; gone when there are none. */
export function ShowOlderButton({
  label,
  hasMore,
  isLoading,
  onShowOlder,
}: {
  label: string;
  hasMore: boolean;
  isLoading: boolean;
  onShowOlder: () => void;
}) {
  if (!hasMore) return null;
  return (
    <div className="flex justify-center pt-4">
      <Button variant="outline" onClick={onShowOlder} disabled={isLoading}>
        {isLoading ? 'Loading…' : label}
      </Button>
    </div>
  );
}
