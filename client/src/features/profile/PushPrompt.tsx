import { PUSH_PROMPT_DELAY_MS } from '@fankurve/shared/constants';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/index.js';
import {
  browserProblem,
  enablePush,
  keepPushSubscriptionFresh,
  notificationPermission,
  PushError,
  readPushState,
} from '../../pwa/push.js';
import { Modal } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import './push.css';

/** Set once the prompt was answered or dismissed on this device: it is not shown again. */
export const PUSH_PROMPT_STORAGE_KEY = 'pushPromptDone';

function promptDone(): boolean {
  try {
    return localStorage.getItem(PUSH_PROMPT_STORAGE_KEY) !== null;
  } catch {
    return true; // storage blocked: do not ask on every start
  }
}

function markPromptDone(): void {
  try {
    localStorage.setItem(PUSH_PROMPT_STORAGE_KEY, new Date().toISOString());
  } catch {
    // storage blocked
  }
}

/**
 * Whether to offer push on this device: push can work here, the browser has not
 * been asked yet, the prompt was not answered or dismissed here before, the server sends, and this
 * device is not on already.
 */
export async function shouldOfferPushPrompt(): Promise<boolean> {
  if (promptDone() || browserProblem() || notificationPermission() !== 'default') return false;
  try {
    const state = await readPushState();
    return !state.enabled && state.problem === null && !state.offline;
  } catch {
    return false;
  }
}

interface PushPromptProps {
  /** How long after mounting to wait before asking (3 s after the install prompt). */
  delayMs?: number;
  /** Called once the prompt is over: answered, dismissed, or not needed on this device. */
  onDone?: () => void;
}

/**
 * The enable-push prompt (docs/architecture.md, Profile and prompts): after `delayMs` a dialog offers push with an
 * "enable" button, whose click asks the browser for the permission (never on page load), and a
 * dismiss. Once answered or dismissed it is not shown again on this device. Mounted while signed
 * in, it also keeps an existing subscription current (sent again after 7 days or when it changed).
 */
export function PushPrompt({ delayMs = PUSH_PROMPT_DELAY_MS, onDone }: PushPromptProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const textId = useId();

  useEffect(() => {
    let active = true;
    void keepPushSubscriptionFresh();
    const timer = setTimeout(() => {
      void shouldOfferPushPrompt().then((offer) => {
        if (!active) return;
        if (offer) setOpen(true);
        else onDone?.();
      });
    }, delayMs);
    return () => {
      active = false;
      clearTimeout(timer);
    };
    // Once per mount: onDone may be a fresh function on every render of the parent.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [delayMs]);

  const finish = () => {
    markPromptDone();
    setOpen(false);
    onDone?.();
  };

  const enable = async () => {
    setBusy(true);
    try {
      await enablePush();
      toastSuccess(t('push.enabled'));
    } catch (error) {
      toastError(error instanceof PushError ? t(`push.reasons.${error.reason}`) : errorText(error));
    } finally {
      setBusy(false);
      finish();
    }
  };

  if (!open) return null;
  return (
    <Modal title={t('push.prompt.title')} onClose={finish} size="small" describedBy={textId} busy={busy}>
      <p id={textId} className="push-prompt-text">
        {t('push.prompt.text')}
      </p>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={finish} disabled={busy}>
          {t('push.prompt.later')}
        </button>
        <button type="button" className="button button-primary" onClick={() => void enable()} disabled={busy}>
          {t('push.prompt.enable')}
        </button>
      </div>
    </Modal>
  );
}
