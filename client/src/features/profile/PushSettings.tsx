import type { PushTopic } from '@fankurve/shared/push';
import { useCallback, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.js';
import { useUser } from '../../session/session.js';
import { errorText } from '../../i18n/index.js';
import {
  disablePush,
  enablePush,
  fetchTopics,
  keepPushSubscriptionFresh,
  PushError,
  readPushState,
  saveTopics,
  type PushProblem,
  type PushState,
  type TopicSetting,
} from '../../pwa/push.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import './push.css';

/** The text of a failed switch: the push reason, or the server's message. */
function failureText(error: unknown, reasonText: (reason: PushProblem) => string): string {
  if (error instanceof PushError) return reasonText(error.reason);
  return errorText(error);
}

/**
 * The profile's push settings (docs/architecture.md, Web Push: the switch; admins have extra
 * topics): the switch with this device's state, and why it cannot be switched on where it cannot
 * (never silent); the topics the member can switch off, the admin topics for admins only.
 */
export function PushSettings() {
  const { t } = useTranslation();
  const user = useUser();
  const titleId = useId();
  const stateId = useId();
  const [state, setState] = useState<PushState | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [topics, setTopics] = useState<TopicSetting[] | null>(null);
  const [topicsProblem, setTopicsProblem] = useState<string | null>(null);
  const reasonText = useCallback((reason: PushProblem) => t(`push.reasons.${reason}`), [t]);

  useEffect(() => {
    let active = true;
    void (async () => {
      await keepPushSubscriptionFresh();
      try {
        const next = await readPushState();
        if (active) setState(next);
      } catch (error) {
        if (active) {
          setState({ enabled: false, problem: null, offline: false });
          setProblem(errorText(error));
        }
      }
    })();
    fetchTopics().then(
      (loaded) => active && setTopics(loaded),
      (error: unknown) =>
        active && setTopicsProblem(isApiError(error) && error.offline ? t('push.topicsOffline') : t('push.topicsFailed')),
    );
    return () => {
      active = false;
    };
  }, [t, user.id]);

  const toggle = async (on: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      // enablePush asks for the permission first thing: this click is the user's gesture.
      const next = on ? await enablePush() : await disablePush();
      setState(next);
      toastSuccess(t(on ? 'push.enabled' : 'push.disabled'));
    } catch (error) {
      const text = failureText(error, reasonText);
      setProblem(text);
      if (error instanceof PushError && error.reason === 'permissionDenied')
        setState({ enabled: false, problem: 'permissionDenied', offline: false });
      toastError(text);
    } finally {
      setBusy(false);
    }
  };

  const switchTopic = async (topic: PushTopic, enabled: boolean) => {
    const before = topics;
    setTopics((current) => current?.map((item) => (item.topic === topic ? { ...item, enabled } : item)) ?? current);
    try {
      setTopics(await saveTopics({ [topic]: enabled }));
    } catch (error) {
      setTopics(before);
      toastError(isApiError(error) && error.offline ? t('push.topicsOffline') : errorText(error));
    }
  };

  const unsupported = state?.problem ?? null;
  const stateText = !state
    ? t('push.checking')
    : unsupported
      ? reasonText(unsupported)
      : state.offline
        ? t('push.stateOffline')
        : t(state.enabled ? 'push.stateOn' : 'push.stateOff');
  const memberTopics = topics?.filter((item) => !item.admin) ?? [];
  const adminTopics = user.scope === 'admin' ? (topics?.filter((item) => item.admin) ?? []) : [];

  return (
    <section className="card push-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('push.title')}</h2>
      <label className="check push-switch">
        <input
          type="checkbox"
          role="switch"
          checked={state?.enabled ?? false}
          disabled={!state || busy || (Boolean(unsupported) && !state.enabled) || state.offline}
          aria-describedby={stateId}
          onChange={(event) => void toggle(event.target.checked)}
        />
        <span>{t('push.thisDevice')}</span>
      </label>
      <p id={stateId} className={unsupported ? 'push-state push-state-problem' : 'push-state'} role="status">
        {stateText}
      </p>
      {problem && problem !== stateText && (
        <p className="field-error push-problem" role="alert">
          {problem}
        </p>
      )}
      <fieldset className="push-topics" disabled={!topics}>
        <legend>{t('push.topicsTitle')}</legend>
        {topicsProblem && <p className="muted">{topicsProblem}</p>}
        {memberTopics.map((item) => (
          <TopicSwitch key={item.topic} item={item} onChange={switchTopic} />
        ))}
        {adminTopics.length > 0 && (
          <>
            <p className="push-topics-group">{t('push.adminTopicsTitle')}</p>
            {adminTopics.map((item) => (
              <TopicSwitch key={item.topic} item={item} onChange={switchTopic} />
            ))}
          </>
        )}
      </fieldset>
    </section>
  );
}

function TopicSwitch({ item, onChange }: { item: TopicSetting; onChange: (topic: PushTopic, enabled: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <label className="check push-topic">
      <input type="checkbox" checked={item.enabled} onChange={(event) => onChange(item.topic, event.target.checked)} />
      <span>{t(`push.topics.${item.topic}`)}</span>
    </label>
  );
}
