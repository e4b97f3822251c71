import { useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { TeamConfigForm } from './TeamConfigForm.js';
import { StadiumManagement } from '../stadiums/index.js';
import { NeedsConnection } from '../../ui/NeedsConnection.js';

/**
 * The configuration tabs: Team configuration (the first, shown without `?tab=`) and
 * Stadium management. Another tab: an entry here and its panel below. The tab is kept in `?tab=`.
 */
const TABS = ['team', 'stadiums'] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, 'config.tabTeam' | 'config.tabStadiums'> = {
  team: 'config.tabTeam',
  stadiums: 'config.tabStadiums',
};

/** /config (admin): the tabs and their panels; members see 'Admin access required'. */
export function ConfigPage() {
  const { t } = useTranslation();
  return (
    <NeedsConnection title={t('config.title')}>
      <ConfigPageOnline />
    </NeedsConnection>
  );
}

function ConfigPageOnline() {
  const { t } = useTranslation();
  const user = useUser();
  const [query, setQuery] = useSearchParams();
  const baseId = useId();
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  if (user.scope !== 'admin') return <AdminRequired />;

  const requested = query.get('tab');
  const active: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : TABS[0];
  const select = (tab: Tab) => {
    const next = new URLSearchParams(query);
    if (tab === TABS[0]) next.delete('tab');
    else next.set('tab', tab);
    setQuery(next, { replace: true });
  };

  // Arrow keys move between the tabs (WAI-ARIA tabs pattern).
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(active) + step + TABS.length) % TABS.length] ?? active;
    select(next);
    tabRefs.current.get(next)?.focus();
  };

  return (
    <section className="page config-page" aria-labelledby={`${baseId}-title`}>
      <h1 id={`${baseId}-title`}>{t('config.title')}</h1>
      <div className="tabs" role="tablist" aria-label={t('config.tabsLabel')} onKeyDown={onKeyDown}>
        {TABS.map((tab) => (
          <button
            key={tab}
            ref={(element) => {
              if (element) tabRefs.current.set(tab, element);
              else tabRefs.current.delete(tab);
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab}`}
            className="tab"
            aria-selected={tab === active}
            aria-controls={`${baseId}-panel-${tab}`}
            tabIndex={tab === active ? 0 : -1}
            onClick={() => select(tab)}
          >
            {t(TAB_LABELS[tab])}
          </button>
        ))}
      </div>
      <div className="tab-panel" role="tabpanel" id={`${baseId}-panel-${active}`} aria-labelledby={`${baseId}-tab-${active}`}>
        {active === 'team' ? <TeamConfigForm /> : null}
        {active === 'stadiums' ? <StadiumManagement /> : null}
      </div>
    </section>
  );
}
