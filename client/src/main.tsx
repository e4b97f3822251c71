import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRoutes, preloadStartScreen } from './app/router.js';
import { showSessionMessages } from './app/sessionMessages.js';
import { prewarmDevice, startSession } from './session/session.js';
import { startSiteConfig } from './session/siteConfig.js';
import { initI18n } from './i18n/index.js';
import './pwa/install.js'; // catches the browser's install offer (beforeinstallprompt) from the start
import { registerServiceWorker } from './pwa/register.js';
import './ui/styles.css';

async function main(): Promise<void> {
  showSessionMessages();
  const startScreen = prewarmDevice() ? preloadStartScreen(location.pathname) : null;
  await initI18n();
  startSiteConfig();
  startSession();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root missing in index.html');
  await startScreen;
  createRoot(root).render(
    <StrictMode>
      <AppRoutes />
    </StrictMode>,
  );
  registerServiceWorker();
}

void main();
