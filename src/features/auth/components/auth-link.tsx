import { Link, type LinkProps } from 'react-router-dom';
import { cn } from '@/lib/utils';

/** A link inside account-page text: always underlined, so it stands out without relying on colour. */
export function AuthLink({ className, ...props }: LinkProps) {
  return (
    <Link
      className={cn(
        'text-primary focus-visible:ring-ring rounded-sm font-medium underline underline-offset-4 hover:no-underline focus-visible:ring-2 focus-visible:outline-none',
        className,
      )}
      {...props}
    />
  );
}
