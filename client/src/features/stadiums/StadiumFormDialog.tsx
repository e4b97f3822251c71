import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createStadium, updateStadium, type Stadium } from '../../api/stadiums.js';
import { useSyncStatus } from '../../data/index.js';
import { errorText, messageText } from '../../i18n/index.js';
import { Modal } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { MoneyField } from '../../ui/MoneyField.js';
import {
  EMPTY_STADIUM_FORM,
  stadiumFormValues,
  toStadiumInput,
  type StadiumFormErrors,
  type StadiumFormField,
  type StadiumFormValues,
} from './stadiumForm.js';

const FIELDS: StadiumFormField[] = [
  'team_name',
  'stadium_name',
  'city',
  'capacity',
  'guest_block_capacity',
  'address',
  'ticket_price',
];

/** Add (stadium null) or edit a stadium (docs/product.md, Data and Input rules): online admin work. */
export function StadiumFormDialog({
  stadium,
  onClose,
  onSaved,
}: {
  stadium: Stadium | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { online } = useSyncStatus();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<StadiumFormValues>(() => (stadium ? stadiumFormValues(stadium) : EMPTY_STADIUM_FORM));
  const [errors, setErrors] = useState<StadiumFormErrors>({});
  const [saving, setSaving] = useState(false);

  const set = (field: StadiumFormField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving || !online) return;
    const result = toStadiumInput(values);
    if (!result.ok) {
      setErrors(result.errors);
      const first = FIELDS.find((field) => result.errors[field]);
      if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setSaving(true);
    try {
      if (stadium) await updateStadium(stadium.id, result.body);
      else await createStadium(result.body);
      toastSuccess(messageText(stadium ? 'stadiumUpdated' : 'stadiumAdded'));
      onSaved();
      onClose();
    } catch (error) {
      toastError(errorText(error, stadium ? 'errors.updateStadiumFailed' : 'errors.addStadiumFailed'));
      setSaving(false);
    }
  }

  const input = (field: StadiumFormField, options: { number?: 'integer' | 'money'; optional?: boolean } = {}) => {
    const error = errors[field];
    const common = {
      label: t(`stadiums.fields.${field}`),
      optional: options.optional ? t('stadiums.optional') : undefined,
      error: error ? messageText(error) : undefined,
      name: field,
      value: values[field],
    };
    if (options.number === 'money') return <MoneyField {...common} tidy onValueChange={(value) => set(field, value)} />;
    return (
      <Field
        {...common}
        onChange={(event) => set(field, event.target.value)}
        {...(options.number ? { type: 'number', min: 0, step: 1, inputMode: 'numeric' as const } : { maxLength: 200 })}
      />
    );
  };

  return (
    <Modal title={stadium ? t('stadiums.editTitle') : t('stadiums.addTitle')} onClose={onClose}>
      <form ref={formRef} className="form" noValidate onSubmit={(event) => void submit(event)}>
        {input('team_name')}
        <div className="field-row">
          {input('stadium_name')}
          {input('city')}
        </div>
        <div className="field-row field-row-end">
          {input('capacity', { number: 'integer' })}
          {input('guest_block_capacity', { number: 'integer' })}
        </div>
        {input('address', { optional: true })}
        {input('ticket_price', { number: 'money', optional: true })}
        {online ? null : <p className="offline-hint">{t('stadiums.offline')}</p>}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('stadiums.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving || !online}>
            {saving ? t('stadiums.saving') : t('stadiums.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
