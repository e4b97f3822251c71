import { eurosToCents, formatMoney } from '@fankurve/shared/rules/money';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { createTicketPrice, deleteTicketPrice, type StadiumTicketPrice } from '../../api/stadiums.js';
import { currentLanguage, errorText, messageText } from '../../i18n/index.js';
import { ConfirmDialog } from '../../ui/Dialog.js';
import { Field, FormError } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { MoneyField } from '../../ui/MoneyField.js';
import type { StadiumWithPrices } from './useStadiums.js';
import { toTicketPriceInput } from './stadiumForm.js';

/** Sorted for display: cheapest first, then by type. */
export const sortTicketPrices = (prices: readonly StadiumTicketPrice[]) =>
  [...prices].sort((a, b) => a.price - b.price || a.ticket_type.localeCompare(b.ticket_type));

/** A stadium's ticket price options with add and delete (admin, online). */
export function TicketPrices({ stadium, onChanged }: { stadium: StadiumWithPrices; onChanged: () => void }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const id = useId();
  const [price, setPrice] = useState('');
  const [ticketType, setTicketType] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [priceError, setPriceError] = useState<string | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<StadiumTicketPrice | null>(null);
  const [deletingBusy, setDeletingBusy] = useState(false);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const input = toTicketPriceInput(price, ticketType);
    // One check, one message: a price the field already refuses is said there (and nothing is sent).
    setError(!input.ok && input.field === 'form' ? messageText(input.error) : null);
    setPriceError(!input.ok && input.field === 'price' ? messageText(input.error) : undefined);
    if (!input.ok) return;
    setSaving(true);
    try {
      await createTicketPrice({ stadium_id: stadium.id, price: input.price, ticket_type: input.ticket_type });
      toastSuccess(messageText('ticketPriceAdded'));
      setPrice('');
      setTicketType('');
      onChanged();
    } catch (failure) {
      toastError(errorText(failure, 'errors.addTicketPriceFailed'));
    } finally {
      setSaving(false);
    }
  }

  async function confirmDelete() {
    if (!deleting || deletingBusy) return;
    setDeletingBusy(true);
    try {
      await deleteTicketPrice(deleting.id);
      toastSuccess(messageText('ticketPriceDeleted'));
      onChanged();
    } catch (failure) {
      toastError(errorText(failure, 'errors.deleteTicketPriceFailed'));
    } finally {
      setDeletingBusy(false);
      setDeleting(null);
    }
  }

  const prices = sortTicketPrices(stadium.ticketPrices);

  return (
    <section className="ticket-prices" aria-labelledby={`${id}-title`}>
      <h4 id={`${id}-title`}>{t('stadiums.ticketPrices')}</h4>
      {prices.length === 0 ? (
        <p className="muted">{t('stadiums.noTicketPrices')}</p>
      ) : (
        <ul className="price-list">
          {prices.map((option) => (
            <li key={option.id}>
              <span className="price-type">{option.ticket_type}</span>
              <span className="price-value">{formatMoney(eurosToCents(option.price), language)}</span>
              <button
                type="button"
                className="button button-ghost button-small price-delete"
                onClick={() => setDeleting(option)}
                aria-label={t('stadiums.deletePrice', { type: option.ticket_type })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="price-form" noValidate onSubmit={(event) => void add(event)}>
        <Field
          label={t('stadiums.ticketType')}
          value={ticketType}
          onChange={(event) => setTicketType(event.target.value)}
          placeholder={t('stadiums.ticketTypePlaceholder')}
          maxLength={100}
        />
        <MoneyField
          label={t('stadiums.price')}
          value={price}
          onValueChange={(value) => {
            setPrice(value);
            setPriceError(undefined);
          }}
          error={priceError}
          tidy
        />
        <button type="submit" className="button button-secondary price-add" disabled={saving}>
          {t('stadiums.addPrice')}
        </button>
      </form>
      <FormError message={error} />
      {deleting ? (
        <ConfirmDialog
          title={t('stadiums.deletePriceTitle')}
          message={t('stadiums.deletePriceQuestion', {
            type: deleting.ticket_type,
            price: formatMoney(eurosToCents(deleting.price), language),
          })}
          confirmLabel={t('stadiums.delete')}
          busy={deletingBusy}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setDeleting(null)}
        />
      ) : null}
    </section>
  );
}
