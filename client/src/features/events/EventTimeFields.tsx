import { useTranslation } from 'react-i18next';
import { Field } from '../../ui/Field.js';
import { HOURS, MINUTES } from './eventForm.js';

export type EventTimePart = 'date' | 'hour' | 'minute';

interface Props {
  /** `YYYY-MM-DD`. */
  date: string;
  /** `0`–`23` (a leading zero is fine). */
  hour: string;
  /** `00`, `15`, `30` or `45`. */
  minute: string;
  onChange: (part: EventTimePart, value: string) => void;
  dateError?: string;
}

/** An event's kick-off (docs/product.md, Input rules): the day, and hour and minutes in 15-minute steps, on one row. */
export function EventTimeFields({ date, hour, minute, onChange, dateError }: Props) {
  const { t } = useTranslation();
  return (
    <div className="field-row field-row-3">
      <Field
        label={t('createEvent.date')}
        className="field-grow"
        name="date"
        type="date"
        value={date}
        onChange={(event) => onChange('date', event.target.value)}
        required
        error={dateError}
      />
      <Field label={t('createEvent.hour')}>
        {(control) => (
          <select
            {...control}
            name="hour"
            value={String(Number(hour))}
            onChange={(event) => onChange('hour', event.target.value)}
          >
            {HOURS.map((value) => (
              <option key={value} value={value}>
                {value.padStart(2, '0')}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('createEvent.minute')}>
        {(control) => (
          <select {...control} name="minute" value={minute} onChange={(event) => onChange('minute', event.target.value)}>
            {MINUTES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
