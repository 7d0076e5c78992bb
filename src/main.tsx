import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPagesFor } from './app/router';
import { loadSessionClient } from './lib/session-client';
import { hasStoredSession } from './lib/stored-session';
import { configureZodWithoutEval } from './lib/zod-without-eval';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

configureZodWithoutEval();

// A stored session is read while the page's code loads, not after its first render.
if (hasStoredSession()) void loadSessionClient();
// The landing page is in this chunk; any other page's code is fetched before the first render.
// The first render is a transition, so React renders it in slices the browser can interleave with other
// work rather than as one long task; but the landing page's largest paint is the picture that render
// inserts, so it renders at once.
void preloadPagesFor(window.location.pathname).then(() => {
  const reactRoot = createRoot(root);
  const render = () =>
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  if (window.location.pathname === '/') render();
  else startTransition(render);
});
