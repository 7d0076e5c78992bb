import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Code shared with the Edge Functions (one withdrawal schema for form and server).
      '@functions': fileURLToPath(new URL('./supabase/functions', import.meta.url)),
    },
    // @supabase/auth-ui-react ships its own React 18 copy; two Reacts break hooks, so use ours.
    dedupe: ['react', 'react-dom'],
  },
  server: { port: 5173, strictPort: true },
  preview: { port: 5173, strictPort: true },
});
