import { useTranslation } from 'react-i18next';

interface Props {
  saving: boolean;
  online: boolean;
  onCancel: () => void;
  /** Without it, Save submits the form the buttons are in. */
  onSave?: () => void;
}

/** Save and Cancel of an edit mode of this screen: saving is online work, Cancel waits while it runs. */
export function SaveCancel({ saving, online, onCancel, onSave }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <button type={onSave ? 'button' : 'submit'} className="button button-primary" disabled={saving || !online} onClick={onSave}>
        {saving ? t('eventDetail.saving') : t('eventDetail.save')}
      </button>
      <button type="button" className="button button-ghost" disabled={saving} onClick={onCancel}>
        {t('eventDetail.cancel')}
      </button>
    </>
  );
}
