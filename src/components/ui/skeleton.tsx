import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

// The pulse starts after a second: most waits end sooner, and until then the compositor does not redraw
// the page sixty times a second on the CPU the page's own load needs.
const skeletonVariants = cva('animate-pulse [animation-delay:1s]', {
  variants: {
    shape: { block: 'rounded-md', circle: 'rounded-full' },
    // `onPrimary` stays visible on a `bg-primary` surface.
    tone: { muted: 'bg-muted', onPrimary: 'bg-primary-foreground/20' },
  },
  defaultVariants: { shape: 'block', tone: 'muted' },
});

/** A placeholder block; give it the size of the content it stands for so nothing shifts on load. */
export function Skeleton({
  className,
  shape,
  tone,
  ...props
}: ComponentProps<'div'> & VariantProps<typeof skeletonVariants>) {
  return <div aria-hidden className={cn(skeletonVariants({ shape, tone }), className)} {...props} />;
}
