import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './modal.css';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Wider dialogs for forms with several columns. */
  size?: 'small' | 'large';
}

/**
 * A modal dialog on the native <dialog> element: focus stays inside, Escape closes it, the page behind
 * is inert. It is open while mounted; the parent unmounts it to close (so forms start fresh).
 */
export function Modal({ title, onClose, children, size = 'large' }: ModalProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    // Removing the element on unmount closes it; no close() here (StrictMode re-runs this effect).
    if (dialog && !dialog.open) dialog.showModal();
  }, []);

  return (
    <dialog
      ref={ref}
      className={`modal modal-${size}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      // The browser may still close it (a repeated Escape): keep the parent in step.
      onClose={onClose}
    >
      <div className="modal-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="modal-close" onClick={onClose} aria-label={t('common.close')}>
          ×
        </button>
      </div>
      <div className="modal-body">{children}</div>
    </dialog>
  );
}

interface ConfirmProps {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A confirmation before a deletion: the confirm button is red, Cancel and Escape keep everything. */
export function ConfirmDialog({ title, message, confirmLabel, cancelLabel, busy = false, onConfirm, onCancel }: ConfirmProps) {
  return (
    <Modal title={title} onClose={onCancel} size="small">
      <div className="confirm-message">{message}</div>
      <div className="modal-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
