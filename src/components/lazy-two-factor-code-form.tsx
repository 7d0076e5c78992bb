import { lazy, Suspense, type ComponentProps } from 'react';

const TwoFactorCodeForm = lazy(() =>
  import('./two-factor-code-form').then(({ TwoFactorCodeForm: form }) => ({ default: form })),
);

/**
 * The code form, loaded when a code is first asked for: a page offering an action behind a code (sell,
 * cancel) does not load the form and its form library with its own code.
 */
export function LazyTwoFactorCodeForm(props: ComponentProps<typeof TwoFactorCodeForm>) {
  return (
    <Suspense fallback={<p className="text-muted-foreground text-sm">Loading…</p>}>
      <TwoFactorCodeForm {...props} />
    </Suspense>
  );
}
