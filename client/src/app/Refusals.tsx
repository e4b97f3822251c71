import { NOTICE_ACTIONS, type Language, type NoticeAction, type NoticeDoc } from '@fankurve/shared';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { markNoticesRead, useEvents } from '../data/index.js';
import type { CamelCase, RefusalActionKey } from '../i18n/areas.js';
import { formatInstant } from '../i18n/dates.js';
import { currentLanguage, errorText, messageText } from '../i18n/index.js';
import { Modal } from '../ui/Dialog.js';
import { toastError } from '../ui/toast.js';

/** The text of a refusal action: in de.json and en.json, or in its collection's own texts (`refusalActions`, i18n/areas.ts). */
type ActionKey = `refusals.actions.${RefusalActionKey}`;

const KNOWN_ACTIONS: ReadonlySet<string> = new Set(NOTICE_ACTIONS);

/** What was refused, in words (the notice's `action`, one of the collections' declared refusals). */
function actionKey(action: string | null): ActionKey {
  if (action === null || !KNOWN_ACTIONS.has(action)) return 'refusals.actions.other';
  const camel = action.replace(/\.(\w)/g, (_, first: string) => first.toUpperCase()) as CamelCase<NoticeAction>;
  return `refusals.actions.${camel}`;
}

/** When the server refused the change, in the device's time zone: `12.03.2026, 14:05` (de), `12 Mar 2026, 14:05` (en). */
const formatRefusedAt = (iso: string, language: Language): string => formatInstant(iso, language);

interface Props {
  /** The unread refusals, newest first (live: a notice read here or on another device leaves the list). */
  notices: readonly NoticeDoc[];
  onClose: () => void;
}

/**
 * The list of refused changes, opened from the sync indicator: which event, what was refused, why and
 * when; each is marked read on its own or all at once (the read state syncs to the member's other devices).
 */
export function RefusalsDialog({ notices, onClose }: Props) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const events = useEvents();
  const known = useMemo(() => new Set((events ?? []).map((event) => event.id)), [events]);
  const listRef = useRef<HTMLUListElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  /** After one is marked read, the focus goes to the next one's button (or to Close): undefined = nothing to do. */
  const focusNext = useRef<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const target = focusNext.current;
    if (target === undefined) return;
    const button = target ? listRef.current?.querySelector<HTMLButtonElement>(`[data-notice="${target}"] .refusal-read`) : null;
    if (target && !button) return; // the list has not caught up yet
    focusNext.current = undefined;
    (button ?? closeRef.current)?.focus();
  }, [notices]);

  async function mark(ids: string[]) {
    setBusy(true);
    try {
      await markNoticesRead(ids);
      return true;
    } catch (error) {
      focusNext.current = undefined;
      toastError(errorText(error, 'errors.markReadFailed'));
      return false;
    } finally {
      setBusy(false);
    }
  }

  const markOne = (notice: NoticeDoc, index: number) => {
    const next = notices[index + 1] ?? notices[index - 1];
    focusNext.current = next ? next.id : null;
    void mark([notice.id]);
  };

  const markAll = async () => {
    if (await mark(notices.map((notice) => notice.id))) onClose();
  };

  return (
    <Modal title={t('refusals.title')} onClose={onClose} size="small">
      <p className="refusals-intro">{t('refusals.intro')}</p>
      {notices.length === 0 ? (
        <p className="refusals-none">{t('refusals.none')}</p>
      ) : (
        <ul className="refusal-list" ref={listRef}>
          {notices.map((notice, index) => (
            <Refusal
              key={notice.id}
              notice={notice}
              eventKnown={notice.event_id !== null && known.has(notice.event_id)}
              language={language}
              onRead={() => markOne(notice, index)}
              onFollow={onClose}
            />
          ))}
        </ul>
      )}
      <div className="modal-actions">
        {notices.length > 0 ? (
          <button type="button" className="button button-secondary" onClick={() => void markAll()} disabled={busy}>
            {t('refusals.markAllRead')}
          </button>
        ) : null}
        <button ref={closeRef} type="button" className="button button-primary" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </Modal>
  );
}

interface RefusalProps {
  notice: NoticeDoc;
  eventKnown: boolean;
  language: Language;
  onRead: () => void;
  /** The event link was followed: the dialog closes. */
  onFollow: () => void;
}

function Refusal({ notice, eventKnown, language, onRead, onFollow }: RefusalProps) {
  const { t } = useTranslation();
  const id = useId();
  const title = notice.event_title;
  return (
    <li className="refusal" data-notice={notice.id}>
      <div className="refusal-body" id={id}>
        <p className="refusal-what">
          <strong>{t(actionKey(notice.action))}</strong>
          {title ? (
            <>
              {' · '}
              {eventKnown ? (
                <Link to={`/events/${notice.event_id}`} onClick={onFollow}>
                  {title}
                </Link>
              ) : (
                <span>{title}</span>
              )}
            </>
          ) : null}
        </p>
        <p className="refusal-reason">{messageText(notice.code, notice.message)}</p>
        <p className="refusal-when">
          <time dateTime={notice.created_at}>
            {t('refusals.refusedAt', { date: formatRefusedAt(notice.created_at, language) })}
          </time>
        </p>
      </div>
      <button type="button" className="button button-secondary button-small refusal-read" aria-describedby={id} onClick={onRead}>
        {t('refusals.markRead')}
      </button>
    </li>
  );
}
