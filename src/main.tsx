import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { preloadPagesFor } from './app/router';
import { configureZodWithoutEval } from './lib/zod-without-eval';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

// The landing page is in this chunk; any other page's code (and Zod's settings, for its forms) is fetched
// before the first render. The landing parses nothing, so it sets Zod up once it has loaded.
const { pathname } = window.location;
if (pathname === '/') window.addEventListener('load', () => void configureZodWithoutEval(), { once: true });
const beforeFirstRender =
  pathname === '/'
    ? preloadPagesFor(pathname)
    : Promise.all([preloadPagesFor(pathname), configureZodWithoutEval()]);
void beforeFirstRender.then(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
