import { cva, type VariantProps } from 'class-variance-authority';
import { useEffect, useLayoutEffect, useRef, useState, type ComponentProps, type RefObject } from 'react';
import { cn } from '@/lib/utils';

/** Whether the element's content is wider than the element, kept up to date as either changes size. */
function useOverflowsSideways(ref: RefObject<HTMLElement | null>): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    // Measured in the observer's callbacks only, the first of which comes with the frame's own layout:
    // measuring at once forced a layout per table as a page's tables mounted one after another.
    const observer = new ResizeObserver(() => setOverflows(element.scrollWidth > element.clientWidth + 1));
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return overflows;
}

/** Whether a cell shows nothing: no text, no control, no picture (an actions cell of a decided request). */
function isBlank(cell: HTMLTableCellElement): boolean {
  return (
    cell.textContent.trim() === '' && !cell.querySelector('button, input, select, textarea, a, img, svg')
  );
}

/**
 * Names each body cell after its column's header (`data-label`), kept up to date as rows come and go: on a
 * phone a row is a card, and each of its cells shows that name beside its value. A cell spanning several
 * columns (a total's title, an empty list's message) is a row's own text and gets no name; a cell that shows
 * nothing is marked `data-blank`, so a card leaves it out rather than show its name alone.
 */
function useCellsNamedAfterHeaders(ref: RefObject<HTMLTableElement | null>) {
  useLayoutEffect(() => {
    const table = ref.current;
    if (!table) return;
    const name = () => {
      const headers = Array.from(table.tHead?.rows[0]?.cells ?? [], (cell) => cell.textContent.trim());
      for (const body of Array.from(table.tBodies)) {
        for (const row of Array.from(body.rows)) {
          let column = 0;
          for (const cell of Array.from(row.cells)) {
            const header = cell.colSpan === 1 ? headers[column] : undefined;
            if (header) cell.dataset.label = header;
            else delete cell.dataset.label;
            if (header && isBlank(cell)) cell.dataset.blank = '';
            else delete cell.dataset.blank;
            column += cell.colSpan;
          }
        }
      }
    };
    name();
    // Only rows and text are watched: naming a cell changes an attribute, which does not call this again.
    const observer = new MutationObserver(name);
    observer.observe(table, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [ref]);
}

/**
 * On a phone (below 640 px) a table's rows are cards: the header row is read by screen readers only, each
 * cell is a line with its column's name (see useCellsNamedAfterHeaders) and its value, nothing stays
 * sticky, cells that show nothing are left out. Money and statuses are then read without scrolling sideways.
 */
const PHONE_CARDS = cn(
  'max-sm:block max-sm:[&_tbody]:block max-sm:[&_tbody]:space-y-2 max-sm:[&_thead]:sr-only',
  'max-sm:[&_tbody>tr]:block max-sm:[&_tbody>tr]:rounded-md max-sm:[&_tbody>tr]:border max-sm:[&_tbody>tr]:px-3 max-sm:[&_tbody>tr]:py-1',
  'max-sm:[&_tbody>tr:last-child]:border',
  // A cell is a block with its name floated left, so a value of several lines stacks at the right of it.
  'max-sm:[&_td]:static max-sm:[&_td]:flow-root max-sm:[&_td[data-label]]:before:float-left max-sm:[&_td[data-label]]:before:mr-3',
  'max-sm:[&_td]:border-l-0 max-sm:[&_td]:px-0 max-sm:[&_td]:py-1.5 max-sm:[&_td]:text-right max-sm:[&_td]:whitespace-normal',
  'max-sm:[&_td[data-blank]]:hidden max-sm:[&_td[data-label]]:before:text-muted-foreground max-sm:[&_td[data-label]]:before:text-left',
  'max-sm:[&_td[data-label]]:before:text-xs max-sm:[&_td[data-label]]:before:font-medium max-sm:[&_td[data-label]]:before:uppercase',
  'max-sm:[&_td[data-label]]:before:content-[attr(data-label)]',
);

/**
 * A table that never widens the page: it fits its container, and when its columns need more room it
 * scrolls sideways inside its own box and says so, in words under it and to a screen reader (the box
 * becomes a named region the keyboard can reach and scroll, as axe's scrollable-region rule asks). On a
 * phone its rows are cards (PHONE_CARDS). Every table of the app, the admin's included, is one of these.
 */
export function Table({ className, 'aria-label': label, ...props }: ComponentProps<'table'>) {
  const box = useRef<HTMLDivElement>(null);
  const table = useRef<HTMLTableElement>(null);
  const scrolls = useOverflowsSideways(box);
  useCellsNamedAfterHeaders(table);
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
        <table
          ref={table}
          aria-label={label}
          className={cn('w-full caption-bottom text-sm', PHONE_CARDS, className)}
          {...props}
        />
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
