import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPagesFor } from './app/router';
import { configureZodWithoutEval } from './lib/zod-without-eval';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

configureZodWithoutEval();

// The landing page is in this chunk; any other page's code is fetched before the first render.
void preloadPagesFor(window.location.pathname).then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
