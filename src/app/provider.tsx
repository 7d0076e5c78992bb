import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Toaster } from 'sonner';
import { AuthProvider } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';

export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>{children}</AuthProvider>
      {/* Below the sticky top bars (56–64 px), so a toast never covers Account or Logout. */}
      <Toaster
        position="top-right"
        duration={5000}
        closeButton
        offset={{ top: '4.5rem' }}
        mobileOffset={{ top: '4.5rem' }}
      />
    </QueryClientProvider>
  );
}
