import { checkNewPassword, eurosToCents, LANGUAGES, SCOPES, type Language, type Scope } from '@fankurve/shared';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useUser } from '../../session/session.js';
import { Field } from '../../ui/Field.js';
import { toastError, toastSuccess } from '../../ui/toast.js';
import { AdminRequired } from '../../ui/AdminRequired.js';
import { fetchUser, setPassword, updateUser, type AdminUser } from '../../api/admin.js';
import { failureText, formatTimestamp } from './format.js';
import './admin.css';
import { debtText } from '../../ui/money.js';
import { NeedsConnection } from '../../ui/NeedsConnection.js';
import { DataExportButton } from '../profile/index.js';

/** /users/{id} (admin): edit username, email, scope and language; set a new password. */
export function UserProfilePage() {
  const { t } = useTranslation();
  return (
    <NeedsConnection title={t('admin.usersTitle')}>
      <UserProfilePageOnline />
    </NeedsConnection>
  );
}

function UserProfilePageOnline() {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const language = (i18n.language === 'en' ? 'en' : 'de') as Language;
  const isAdmin = me.scope === 'admin';
  const titleId = useId();
  const [user, setUser] = useState<AdminUser | null>(null);
  const [form, setForm] = useState({ username: '', email: '', scope: 'user' as Scope, language: 'de' as Language });
  const [saving, setSaving] = useState(false);
  const [newPassword, setNewPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);

  useEffect(() => {
    if (!isAdmin) return;
    let stopped = false;
    fetchUser(id).then(
      (loaded) => {
        if (stopped) return;
        setUser(loaded);
        setForm({ username: loaded.username, email: loaded.email, scope: loaded.scope, language: loaded.language });
      },
      () => {
        if (stopped) return;
        toastError(t('admin.failed.loadProfile'));
        navigate('/users', { replace: true });
      },
    );
    return () => {
      stopped = true;
    };
  }, [id, isAdmin, navigate, t]);

  if (!isAdmin) return <AdminRequired />;
  if (!user) return <p className="page muted">{t('common.loading')}</p>;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      const answer = await updateUser(user.id, form);
      setUser({ ...user, ...answer.user });
      toastSuccess(t('admin.done.update'));
    } catch (error) {
      toastError(failureText(error, t('admin.failed.update')));
    } finally {
      setSaving(false);
    }
  };

  const changePassword = async (event: FormEvent) => {
    event.preventDefault();
    const problem = checkNewPassword(newPassword);
    if (problem) {
      setPasswordError(t(`serverMessages.${problem}`));
      return;
    }
    setPasswordError(null);
    setSaving(true);
    try {
      await setPassword(user.id, newPassword);
      setNewPassword('');
      toastSuccess(t('serverMessages.passwordUpdated'));
    } catch (error) {
      setPasswordError(failureText(error, t('admin.failed.password')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="page admin-page" aria-labelledby={titleId}>
      <p>
        <Link to="/users">← {t('admin.backToUsers')}</Link>
      </p>
      <h1 id={titleId}>{user.username}</h1>
      <p className="muted">
        {t('admin.created')}: {formatTimestamp(user.created_at, language)} · {t('admin.unpaidCount')}: {user.unpaid_count} ·{' '}
        {t('admin.totalDebt')}: {debtText(eurosToCents(user.total_debt), user.open_price_count, language, t)}
      </p>
      <p>
        <Link to={`/admin/log?user_id=${encodeURIComponent(user.id)}`}>{t('audit.link')}</Link>
      </p>
      <DataExportButton user={user} />
      <form className="admin-form" onSubmit={(event) => void save(event)}>
        <h2>{t('admin.profile')}</h2>
        <Field
          label={t('admin.username')}
          value={form.username}
          onChange={(e) => setForm({ ...form, username: e.target.value })}
          required
        />
        <Field
          label={t('admin.email')}
          type="email"
          value={form.email}
          onChange={(e) => setForm({ ...form, email: e.target.value })}
          required
        />
        <Field label={t('admin.scope')}>
          {(control) => (
            <select {...control} value={form.scope} onChange={(e) => setForm({ ...form, scope: e.target.value as Scope })}>
              {SCOPES.map((scope) => (
                <option key={scope} value={scope}>
                  {t(`admin.scopes.${scope}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('admin.language')}>
          {(control) => (
            <select
              {...control}
              value={form.language}
              onChange={(e) => setForm({ ...form, language: e.target.value as Language })}
            >
              {LANGUAGES.map((code) => (
                <option key={code} value={code}>
                  {t(`admin.languages.${code}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div>
          <button type="submit" className="button button-primary" disabled={saving}>
            {t('admin.save')}
          </button>
        </div>
      </form>
      <form className="admin-form" onSubmit={(event) => void changePassword(event)} noValidate>
        <h2>{t('admin.setPassword')}</h2>
        <Field
          label={t('admin.newPassword')}
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
          error={passwordError ?? undefined}
          hint={t('admin.passwordHint')}
        />
        <div>
          <button type="submit" className="button button-primary" disabled={saving}>
            {t('admin.setPassword')}
          </button>
        </div>
      </form>
    </section>
  );
}
