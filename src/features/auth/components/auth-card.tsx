import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';
import { Card, CardContent, CardDescription, CardFooter, CardHeader } from '@/components/ui/card';

/** The card every account page (log in, sign up, reset, change password) sits in. */
export function AuthCard({
  title,
  titleLevel: Heading = 'h1',
  description,
  footer,
  align = 'center',
  children,
}: {
  title: string;
  /** `h2` when the page already has its own `h1`. */
  titleLevel?: 'h1' | 'h2';
  /** `start` inside a page with other content, `center` on a page of its own. */
  align?: 'center' | 'start';
  description?: string;
  footer?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card className={cn('w-full max-w-md', align === 'center' && 'mx-auto')}>
      <CardHeader>
        <Heading className={cn('font-semibold tracking-tight', Heading === 'h1' ? 'text-2xl' : 'text-xl')}>
          {title}
        </Heading>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>{children}</CardContent>
      {footer && (
        <CardFooter className="text-muted-foreground text-sm">
          <div className="flex grow flex-col items-start gap-2">{footer}</div>
        </CardFooter>
      )}
    </Card>
  );
}
