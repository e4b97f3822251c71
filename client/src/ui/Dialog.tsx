import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './dialog.css';
import { holdModalOpen } from './openModals.js';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Wider dialogs for forms with several columns. */
  size?: 'small' | 'large';
  /** The id of the text that says what the dialog is about (a confirmation's question). */
  describedBy?: string;
  /** Work is under way: Escape and the close button wait for it. */
  busy?: boolean;
}

/**
 * A modal dialog on the native <dialog> element: focus stays inside, Escape closes it, the page behind
 * is inert. It is open while mounted; the parent unmounts it to close (so forms start fresh).
 */
export function Modal({ title, onClose, children, size = 'large', describedBy, busy = false }: ModalProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    const release = holdModalOpen();
    // Closed before the element is removed, so the focus goes back to where it was (the opening button).
    return () => {
      dialog?.close();
      release();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      className={`modal modal-${size}`}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      // The browser may still close it (a repeated Escape): keep the parent in step. Open again by now:
      // that close came from StrictMode re-running the effect, nothing to do.
      onClose={() => {
        if (!ref.current?.open) onClose();
      }}
    >
      <div className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="modal-close" onClick={onClose} disabled={busy} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      <div className="modal-body">{children}</div>
    </dialog>
  );
}

interface ConfirmProps {
  title: string;
  /** The question, e.g. what will be deleted. */
  message: string;
  confirmLabel: string;
  /** The confirmed work is under way: both buttons and Escape wait for it. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A confirmation before a deletion: the confirm button is red, Cancel, Escape and the close
 * button keep everything. Open while mounted, like Modal.
 */
export function ConfirmDialog({ title, message, confirmLabel, busy = false, onConfirm, onCancel }: ConfirmProps) {
  const { t } = useTranslation();
  const messageId = useId();
  return (
    <Modal title={title} onClose={onCancel} size="small" describedBy={messageId} busy={busy}>
      <p id={messageId} className="confirm-message">
        {message}
      </p>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
