import type { EventDoc } from '@fankurve/shared';
import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteEventImage, uploadEventImage } from '../../api/eventDetail.js';
import { errorText } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { imageProblem } from './eventForm.js';
import type { Access } from './shared.js';

/** The event's image (served at /uploads/{filename}); upload and delete for the creator or an admin. */
export function EventImage({ event, access }: { event: EventDoc; access: Access }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  if (!event.image_filename && !access.canManage) return null;

  async function upload(change: ChangeEvent<HTMLInputElement>) {
    const file = change.target.files?.[0];
    change.target.value = '';
    if (!file) return;
    const problem = imageProblem(file);
    if (problem) {
      toastError(t(`eventDetail.validation.${problem}`));
      return;
    }
    setBusy(true);
    try {
      await uploadEventImage(event.id, file);
      toastSuccess(t('eventDetail.imageUploaded'));
    } catch (error) {
      toastError(errorText(error, 'errors.uploadImageFailed'));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    try {
      await deleteEventImage(event.id);
      setConfirmDelete(false);
    } catch (error) {
      toastError(errorText(error, 'errors.deleteImageFailed'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="detail-image">
      {event.image_filename ? (
        <img
          src={`/uploads/${encodeURIComponent(event.image_filename)}`}
          alt={t('eventDetail.imageAlt', { title: event.title })}
        />
      ) : (
        <div className="detail-image-empty">{t('eventDetail.noImage')}</div>
      )}
      {access.canManage ? (
        <div className="detail-image-actions">
          <input
            id={inputId}
            className="sr-only"
            type="file"
            accept="image/*"
            disabled={busy || !access.online}
            onChange={(change) => void upload(change)}
          />
          <label
            htmlFor={inputId}
            className={`button button-small button-ghost${busy || !access.online ? ' is-disabled' : ''}`}
            aria-disabled={busy || !access.online}
          >
            {event.image_filename ? t('eventDetail.replaceImage') : t('eventDetail.uploadImage')}
          </label>
          {event.image_filename ? (
            <button
              type="button"
              className="button button-small button-danger-ghost"
              disabled={busy || !access.online}
              onClick={() => setConfirmDelete(true)}
            >
              {t('eventDetail.deleteImage')}
            </button>
          ) : null}
        </div>
      ) : null}
      {confirmDelete ? (
        <ConfirmDialog
          title={t('eventDetail.deleteImageTitle')}
          message={t('eventDetail.deleteImageText')}
          confirmLabel={t('eventDetail.delete')}
          busy={busy}
          onConfirm={() => void remove()}
          onCancel={() => setConfirmDelete(false)}
        />
      ) : null}
    </div>
  );
}
