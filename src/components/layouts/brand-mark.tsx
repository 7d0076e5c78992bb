import { cn } from '@/lib/utils';

/** The CoinVault mark: a coin inside a vault outline, drawn in the primary colour. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={cn('text-primary shrink-0', className)}>
      <rect x="2" y="2" width="28" height="28" rx="8" fill="currentColor" />
      <circle cx="16" cy="16" r="8" fill="none" stroke="var(--color-primary-foreground)" strokeWidth="2.5" />
      <path
        d="M16 11.5v9M13 14h4.5a2 2 0 0 1 0 4H13"
        fill="none"
        stroke="var(--color-primary-foreground)"
        strokeWidth="2"
        strokeLinecap="round"
      />
    </svg>
  );
}
