import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Field, FormError } from '../../ui/Field.js';

/*
 * The parts every account form shares (sign-in, registration, password recovery and change): the
 * sending state, the fields, the error line and the submit button.
 */

/**
 * A form's request, one at a time: `send` clears the error line and sets it from `failureText` when
 * the request fails. After a success the form stays busy: the page moves on or shows what follows.
 */
export function useSend() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function send(request: () => Promise<void>, failureText: (failure: unknown) => string): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await request();
    } catch (failure) {
      setError(failureText(failure));
      setBusy(false);
    }
  }
  return { busy, error, setError, send };
}

/** The form: its fields, the error line, and the submit button (which says when it is busy). */
export function AuthForm({
  busy,
  error,
  submitLabel,
  busyLabel,
  onSubmit,
  children,
}: {
  busy: boolean;
  error: string | null;
  submitLabel: string;
  busyLabel: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  return (
    <form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) onSubmit();
      }}
    >
      {children}
      <FormError message={error} />
      <button type="submit" className="button button-primary button-block" disabled={busy}>
        {busy ? busyLabel : submitLabel}
      </button>
    </form>
  );
}

interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
}

export function UsernameField({ value, onChange }: TextFieldProps) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('auth.username')}
      name="username"
      autoComplete="username"
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export function EmailField({ value, onChange }: TextFieldProps) {
  const { t } = useTranslation();
  return (
    <Field
      label={t('auth.email')}
      name="email"
      type="email"
      autoComplete="email"
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

const PASSWORDS = {
  password: { label: 'auth.password', name: 'password' },
  current: { label: 'auth.currentPassword', name: 'currentPassword' },
  new: { label: 'auth.newPassword', name: 'newPassword' },
  confirm: { label: 'auth.confirmPassword', name: 'confirmPassword' },
} as const;

/**
 * A password input. A `fresh` one is a password being chosen: the password manager may suggest one,
 * and `hint` shows the rules under it.
 */
export function PasswordField({
  kind,
  fresh = false,
  hint = false,
  required = true,
  value,
  onChange,
}: TextFieldProps & { kind: keyof typeof PASSWORDS; fresh?: boolean; hint?: boolean; required?: boolean }) {
  const { t } = useTranslation();
  const { label, name } = PASSWORDS[kind];
  return (
    <Field
      label={t(label)}
      name={name}
      type="password"
      autoComplete={fresh ? 'new-password' : 'current-password'}
      required={required}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      hint={hint ? t('auth.passwordHint') : undefined}
    />
  );
}

/** The link back to the sign-in page under a form. */
export function BackToLogin() {
  const { t } = useTranslation();
  return (
    <p className="auth-switch">
      <Link to="/login">{t('auth.backToLogin')}</Link>
    </p>
  );
}
