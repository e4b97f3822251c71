import { lazy, Suspense, useCallback, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import type { Profile } from '../api/auth.js';
import { markInstallPromptShown, useInstallState, wasInstallPromptShown } from '../pwa/install.js';
import { nextPrompt, type PromptKind } from '../pwa/promptRules.js';
import { useAnyModalOpen } from '../ui/openModals.js';

// The dialog (and the dialog styles) load only when a prompt is due: the signed-in shell stays small.
// A chunk that cannot be loaded (offline right after a new version) skips the prompt quietly.
const loadInstallDialog = () => import('../features/profile/InstallPromptDialog.js');

type DialogProps = { onClose: () => void };

function Skipped({ onClose }: DialogProps) {
  useEffect(onClose, [onClose]);
  return null;
}

const InstallPromptDialog = lazy<ComponentType<DialogProps>>(() =>
  loadInstallDialog().then(
    (m) => ({ default: m.InstallPromptDialog }),
    () => ({ default: Skipped }),
  ),
);

export interface PromptsProps {
  user: Profile;
  /**
   * The push prompt's slot (the web-push feature's dialog). Called when it is the push prompt's turn;
   * it must call `close` when the member answered it or when it has nothing to ask (it may render
   * null): until then no other prompt is shown.
   */
  renderPushPrompt?: (close: () => void) => ReactNode;
}

/**
 * The prompts after sign-in (docs/architecture.md, Profile and prompts): the install prompt and then
 * the push prompt, in the order and with the delays of `promptRules.ts`. Mounted once in the
 * signed-in layout (never on the login page); a new user (sign-out and in) starts afresh.
 */
export function Prompts({ user, renderPushPrompt }: PromptsProps) {
  return <PromptSequence key={user.id} mustChangePassword={user.must_change_password} renderPushPrompt={renderPushPrompt} />;
}

function PromptSequence({
  mustChangePassword,
  renderPushPrompt,
}: {
  mustChangePassword: boolean;
  renderPushPrompt?: PromptsProps['renderPushPrompt'];
}) {
  const install = useInstallState();
  const [installShownOnDevice, setInstallShownOnDevice] = useState(wasInstallPromptShown);
  const [pushTurnTaken, setPushTurnTaken] = useState(false);
  const [open, setOpen] = useState<PromptKind | null>(null);

  const next = nextPrompt({
    signedIn: true,
    mustChangePassword,
    install,
    installShownOnDevice,
    hasPushPrompt: renderPushPrompt !== undefined,
    pushTurnTaken,
    open,
  });
  const kind = next?.kind ?? null;
  const delayMs = next?.delayMs ?? 0;
  // One modal at a time: a prompt due while the member is in another dialog (returning a ticket,
  // a form) waits until it is closed, and its delay counts from then.
  const anotherModalOpen = useAnyModalOpen() && open === null;

  // A new timer whenever the next prompt changes (e.g. the browser's install offer arrived while the
  // push prompt waited): the delay counts from then.
  useEffect(() => {
    if (!kind || anotherModalOpen) return;
    if (kind === 'install') void loadInstallDialog().catch(() => undefined);
    const timer = setTimeout(() => {
      if (kind === 'install') {
        markInstallPromptShown();
        setInstallShownOnDevice(true);
      } else {
        setPushTurnTaken(true);
      }
      setOpen(kind);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [kind, delayMs, anotherModalOpen]);

  const close = useCallback(() => setOpen(null), []);
  usePromptPhase(open ? 'open' : kind ? 'waiting' : 'done');
  if (mustChangePassword || !open) return null;
  if (open === 'push') return <>{renderPushPrompt?.(close)}</>;
  return (
    <Suspense fallback={null}>
      <InstallPromptDialog onClose={close} />
    </Suspense>
  );
}

/**
 * Where the sequence stands, on the document as `data-prompts`: `waiting` (a prompt's delay runs),
 * `open` (a prompt is up or deciding) or `done` (nothing is due). A check that no prompt appears
 * waits for `done` instead of for a span of time.
 */
function usePromptPhase(phase: 'waiting' | 'open' | 'done') {
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.prompts = phase;
    return () => {
      delete root.dataset.prompts;
    };
  }, [phase]);
}
