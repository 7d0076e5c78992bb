import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

/** A placeholder block; give it the size of the content it stands for so nothing shifts on load. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return <div aria-hidden className={cn('bg-muted animate-pulse rounded-md', className)} {...props} />;
}
