import {
  checkLoyaltyAdjustment,
  LOYALTY_ADJUSTMENT_MAX,
  LOYALTY_ADJUSTMENT_MIN,
  LOYALTY_NOTE_MAX_LENGTH,
} from '@fankurve/shared/rules/loyalty';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.js';
import { saveAdjustment, type LoyaltyAdjustment, type RankingRow } from '../../api/loyalty.js';
import { errorText, messageText } from '../../i18n/index.js';
import { Modal } from '../../ui/Dialog.js';
import { Field } from '../../ui/Field.js';
import { useOnline } from '../../ui/NeedsConnection.js';
import { toastError, toastSuccess } from '../../ui/toast.js';

interface Props {
  row: RankingRow;
  /** The member's current adjustment, or none. */
  current: LoyaltyAdjustment | undefined;
  onClose: () => void;
  onSaved: () => void;
}

type Errors = Partial<Record<'points' | 'note', string>>;

/** A typed whole number (a leading minus allowed), else NaN, which the rule refuses ("1.5" too, by the rule). */
const parsePoints = (text: string): number => (/^\s*-?\d+(\.\d*)?\s*$/.test(text) ? Number(text) : Number.NaN);

/**
 * The admin's adjustment of a member's loyalty points (docs/product.md, Loyalty): points replacing
 * the previous adjustment and a one-line note, checked on the device with the server's rule.
 */
export function AdjustDialog({ row, current, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const online = useOnline();
  const [points, setPoints] = useState(String(current?.points ?? 0));
  const [note, setNote] = useState(current?.note ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving || !online) return;
    const checked = checkLoyaltyAdjustment({ points: parsePoints(points), note });
    if (!checked.ok) {
      const text = messageText(checked.code);
      setErrors(checked.code === 'loyaltyPointsInvalid' ? { points: text } : { note: text });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await saveAdjustment(row.user_id, checked.value);
      toastSuccess(t('loyalty.saved'));
      onSaved();
    } catch (error) {
      toastError(isApiError(error) ? errorText(error) : t('loyalty.saveFailed'));
      setSaving(false);
    }
  }

  return (
    <Modal title={t('loyalty.adjustTitle', { username: row.username })} onClose={onClose} busy={saving} size="small">
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <p className="muted">{t('loyalty.adjustCounted', { count: row.away_matches })}</p>
        <Field
          label={t('loyalty.adjustPoints')}
          name="points"
          type="number"
          step={1}
          min={LOYALTY_ADJUSTMENT_MIN}
          max={LOYALTY_ADJUSTMENT_MAX}
          autoComplete="off"
          value={points}
          onChange={(event) => setPoints(event.target.value)}
          required
          hint={t('loyalty.adjustPointsHint', { min: LOYALTY_ADJUSTMENT_MIN, max: LOYALTY_ADJUSTMENT_MAX })}
          error={errors.points}
        />
        <Field
          label={t('loyalty.adjustNote')}
          optional={t('loyalty.optional')}
          name="note"
          value={note}
          onChange={(event) => setNote(event.target.value)}
          maxLength={LOYALTY_NOTE_MAX_LENGTH}
          hint={t('loyalty.adjustNoteHint', { max: LOYALTY_NOTE_MAX_LENGTH })}
          error={errors.note}
        />
        {online ? null : <p className="offline-hint">{t('loyalty.adjustOffline')}</p>}
        <div className="modal-actions">
          <button type="button" className="button button-secondary" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving || !online}>
            {saving ? t('loyalty.saving') : t('loyalty.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
