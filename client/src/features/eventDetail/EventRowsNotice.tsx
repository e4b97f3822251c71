import type { EventDoc } from '@fankurve/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { EventRowsState } from '../../data/index.js';

interface Props {
  event: EventDoc;
  state: Exclude<EventRowsState, 'onDevice'>;
  retry: () => void;
}

/**
 * In place of the attendee list, the transports and the comments of an older season's event whose
 * rows the device does not hold yet (docs/architecture.md, What a device keeps): the counts the event
 * carries, and whether the rest is loading, needs the network, or failed to load.
 */
export function EventRowsNotice({ event, state, retry }: Props) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="card detail-card event-rows-notice" aria-labelledby={`${id}-title`} aria-busy={state === 'loading'}>
      <div className="card-head">
        <h2 id={`${id}-title`} className="card-title">
          {t('eventDetail.attendees')}
        </h2>
        <p className="event-counts">
          <span className="count count-going">{t('eventDetail.goingCount', { count: event.going_count })}</span>
          <span className="count count-maybe">{t('eventDetail.maybeCount', { count: event.maybe_count })}</span>
        </p>
      </div>
      <p role="status">{t(`eventDetail.rows.${state}`)}</p>
      {state === 'failed' && (
        <button type="button" className="button" onClick={retry}>
          {t('eventDetail.rows.retry')}
        </button>
      )}
    </section>
  );
}
