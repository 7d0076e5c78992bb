import { QueryState } from '@/components/query-state';
import { Skeleton } from '@/components/ui/skeleton';
import { useLatestCheckpoint } from '../api/get-latest-checkpoint';
import { LATEST_CHECKPOINT_FAILED_MESSAGE } from '../api/proof-messages';

/** The latest checkpoint as published: when, the chain head it covers, the totals and the root. */
export function LatestCheckpoint() {
  const checkpoint = useLatestCheckpoint();
  return (
    <QueryState
      query={checkpoint}
      placeholder={<Skeleton className="h-32 w-full" />}
      errorMessage={LATEST_CHECKPOINT_FAILED_MESSAGE}
    >
      {(latest) =>
        latest ? (
          <dl className="grid gap-2 text-sm sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-x-4">
            <dt className="text-muted-foreground">Checkpoint</dt>
            <dd>
              #{latest.id}, {new Date(latest.created_at).toLocaleString()}
            </dd>
            <dt className="text-muted-foreground">Root</dt>
            <dd className="font-mono break-all" data-testid="published-root">
              {latest.root}
            </dd>
            <dt className="text-muted-foreground">People counted</dt>
            <dd>{latest.people.toLocaleString()}</dd>
            <dt className="text-muted-foreground">Total owed</dt>
            <dd>
              {latest.currencies.map((currency, index) => (
                <span key={currency} className="mr-4 inline-block">
                  {latest.totals[index]} {currency}
                </span>
              ))}
            </dd>
            <dt className="text-muted-foreground">Journal entries covered</dt>
            <dd className="break-all">
              1 to {latest.head_seq.toLocaleString()}, ending in{' '}
              <span className="font-mono">{latest.head_hash}</span>
            </dd>
          </dl>
        ) : (
          <p className="text-muted-foreground text-sm">No checkpoint has been made yet.</p>
        )
      }
    </QueryState>
  );
}
