import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startSession } from './app/app';
import { keepTypedBeforeStart } from './features/auth/typed-before-start';
import { nextTask } from './lib/next-task';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// /login's HTML holds the form, prerendered (scripts/prerender-pages.tsx): what was typed in it goes on
keepTypedBeforeStart(root);
// The scripts' evaluation ends here, and what the app does first runs in tasks of its own, the browser free
// between them: the session (its stored session checked, the profile taken from the page or its calls sent), then
// React's first render, itself in slices of a few milliseconds (a transition). In the evaluation's one task they
// were its longest part: 40-50 ms on this machine, the longest task of a page opened with a session at
// Lighthouse's 4x CPU slowdown (Lighthouse counts a module's evaluation as blocking time after the first paint).
nextTask(() => {
  const session = startSession();
  nextTask(() =>
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <App session={session} />
        </StrictMode>,
      ),
    ),
  );
});
