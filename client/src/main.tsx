import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoutes, preloadStartScreen } from './app/router.js';
import { showSessionMessages } from './app/sessionMessages.js';
import { prewarmDevice, startSession } from './session/session.js';
import { startSiteConfig } from './session/siteConfig.js';
import { initI18n } from './i18n/index.js';
import './pwa/install.js'; // catches the browser's install offer (beforeinstallprompt) from the start
import { registerServiceWorker } from './pwa/register.js';
import { yieldToMain } from './data/yieldToMain.js';
import './ui/styles.css';

/**
 * Starts the app in tasks of its own, each short on a phone (docs/architecture.md, Loading): the
 * entry's modules were evaluated in the task before; then the device database is asked for, then the
 * start screen's chunk, the texts and the club's configuration are read, and the session starts.
 */
async function main(): Promise<void> {
  await yieldToMain();
  showSessionMessages();
  const warm = prewarmDevice();
  // The start screen's chunk in a task of its own, apart from the data layer's: each starts its
  // requests and links its style sheets, together one long task on a phone.
  await yieldToMain();
  const startScreen = warm ? preloadStartScreen(location.pathname) : null;
  await yieldToMain();
  await initI18n();
  await yieldToMain();
  startSiteConfig();
  await yieldToMain();
  startSession();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing in index.html');
  await startScreen;
  // The first render as a transition: React builds the screen in slices of a few milliseconds
  // instead of one long task (docs/architecture.md, Loading).
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <AppRoutes />
      </StrictMode>,
    ),
  );
  registerServiceWorker();
}

void main();
