import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { keepTypedBeforeStart } from './features/auth/typed-before-start';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// /login's HTML holds the form, prerendered (scripts/prerender-login.tsx): what was typed in it goes on
keepTypedBeforeStart(root);
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
