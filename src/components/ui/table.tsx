import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="relative w-full overflow-x-auto">
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
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
