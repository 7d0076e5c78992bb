import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { Toaster } from 'sonner';

/** Renders a form as the app does (query client, toaster) and a keyboard-and-mouse user for it. */
export function renderForm(form: ReactElement) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      {form}
      <Toaster />
    </QueryClientProvider>,
  );
  return { user: userEvent.setup() };
}

/** The error text announced for a field, found the way a screen reader finds it. */
export function errorOf(field: HTMLElement): string | null {
  const errorId = field.getAttribute('aria-describedby');
  return errorId ? (document.getElementById(errorId)?.textContent ?? null) : null;
}

export function fieldLabelled(label: string): HTMLElement {
  return screen.getByLabelText(label, { selector: 'input' });
}
