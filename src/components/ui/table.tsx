import { cva, type VariantProps } from 'class-variance-authority';
import { useEffect, useRef, useState, type ComponentProps, type RefObject } from 'react';
import { cn } from '@/lib/utils';

/** Whether the element's content is wider than the element, kept up to date as either changes size. */
function useOverflowsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    measure();
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/**
 * A table that never widens the page: it fits its container, and when its columns need more room it
 * scrolls sideways inside its own box and says so, in words under it and to a screen reader (the box
 * becomes a named region the keyboard can reach and scroll, as axe's scrollable-region rule asks).
 * Every table of the app, the admin's included, is one of these.
 */
export function Table({ className, 'aria-label': label, ...props }: ComponentProps<'table'>) {
  const box = useRef<HTMLDivElement>(null);
  const scrolls = useOverflowsSideways(box);
  return (
    <div className="grid w-full min-w-0 gap-2">
      <div
        ref={box}
        className="focus-visible:ring-ring relative w-full overflow-x-auto rounded-md focus-visible:ring-2 focus-visible:outline-none"
        data-scrolls={scrolls || undefined}
        {...(scrolls && {
          role: 'region',
          tabIndex: 0,
          'aria-label': `${label ?? 'Table'}, scrolls sideways`,
        })}
      >
        <table aria-label={label} className={cn('w-full caption-bottom text-sm', className)} {...props} />
      </div>
      {scrolls && (
        <p className="text-muted-foreground text-xs" aria-hidden>
          Scroll sideways to see every column →
        </p>
      )}
    </div>
  );
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('[&_tr]:border-b', className)} {...props} />;
}

/** Body rows highlight on hover; header rows do not. */
export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return (
    <tbody className={cn('[&>tr]:hover:bg-muted/50 [&_tr:last-child]:border-0', className)} {...props} />
  );
}

export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
  return <tr className={cn('border-b transition-colors', className)} {...props} />;
}

const tableHeadVariants = cva(
  'text-muted-foreground h-10 px-3 align-middle text-xs font-medium tracking-wide whitespace-nowrap uppercase',
  {
    variants: {
      // `right` over numeric columns, whose cells are right-aligned too.
      align: { left: 'text-left', right: 'text-right' },
    },
    defaultVariants: { align: 'left' },
  },
);

/** `align` replaces the obsolete native `th` attribute of that name. */
export function TableHead({
  className,
  align,
  ...props
}: Omit<ComponentProps<'th'>, 'align'> & VariantProps<typeof tableHeadVariants>) {
  return <th className={cn(tableHeadVariants({ align }), className)} {...props} />;
}

const tableCellVariants = cva('px-3 py-3 align-middle', {
  variants: {
    // One line per cell, the table scrolls sideways; `wrap` for long text, so the table fits the page.
    wrap: { false: 'whitespace-nowrap', true: 'whitespace-normal' },
  },
  defaultVariants: { wrap: false },
});

export function TableCell({
  className,
  wrap,
  ...props
}: ComponentProps<'td'> & VariantProps<typeof tableCellVariants>) {
  return <td className={cn(tableCellVariants({ wrap }), className)} {...props} />;
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
  return <caption className={cn('text-muted-foreground mt-4 text-sm', className)} {...props} />;
}
