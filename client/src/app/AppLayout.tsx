import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import type { Profile } from '../api/auth.js';
import { LegalLinks } from './LegalLinks.js';
import { Prompts } from './Prompts.js';
import { NavBar } from './NavBar.js';

type PushPromptProps = { delayMs?: number; onDone?: () => void };

/** Stands in for the push prompt when its chunk cannot load (offline right after a new version). */
function PushPromptSkipped({ onDone }: PushPromptProps) {
  useEffect(() => onDone?.(), [onDone]);
  return null;
}

// The push prompt and web-push code load only when the prompt's turn comes: the shell stays small.
const PushPrompt = lazy<ComponentType<PushPromptProps>>(() =>
  import('../features/profile/PushPrompt.js').then(
    (m) => ({ default: m.PushPrompt }),
    () => ({ default: PushPromptSkipped }),
  ),
);

// The prompt sequence already waited PUSH_PROMPT_DELAY_MS before the push prompt's turn.
const renderPushPrompt = (close: () => void) => (
  <Suspense fallback={null}>
    <PushPrompt delayMs={0} onDone={close} />
  </Suspense>
);

/** The signed-in frame: navigation bar, the page, and the imprint and privacy links at its foot. */
export function AppLayout({ user, children }: { user: Profile; children: ReactNode }) {
  return (
    <div className="app">
      <NavBar user={user} />
      <main className="app-main" id="main">
        {children}
      </main>
      <footer className="app-footer">
        <LegalLinks className="footer-legal" />
      </footer>
      {/* The install and push prompts after sign-in, never before a forced password change
          (docs/architecture.md, Profile and prompts). */}
      <Prompts user={user} renderPushPrompt={renderPushPrompt} />
    </div>
  );
}
