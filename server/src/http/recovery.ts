import { forgotPasswordInput, MESSAGES, messageAnswer, resetPasswordInput } from '@fankurve/shared';
import { RateLimit, type Limit } from '../auth/throttle.js';
import { write } from '../db/store.js';
import { tooManyRequests } from '../domain/errors.js';
import { checkResetToken, issuePasswordReset, resetPassword } from '../domain/people/passwordResets.js';
import { getSiteConfig } from '../domain/club/settings.js';
import { prepareNewPassword } from '../domain/people/newPassword.js';
import { passwordResetMail } from '../mail/templates.js';
import type { Api, AppDeps, PasswordResetLimits } from './context.js';
import { apiRoute } from './openapi.js';
import { clientAddress } from './session.js';

const tag = 'Auth';
const HOUR = 60 * 60 * 1000;

/**
 * The limits of the password-reset routes (`PasswordResetLimits` in context.ts); `limit` makes each
 * (deps.ts: in memory, or in the database on PostgreSQL), `name` keeps their keys apart.
 */
export function createPasswordResetLimits(
  limit: (name: string, max: number, windowMs: number) => Limit = (_name, max, windowMs) => new RateLimit(max, windowMs),
): PasswordResetLimits {
  return {
    requestsPerAddress: limit('reset-request-address', 20, HOUR),
    requestsPerEmail: limit('reset-request-email', 3, HOUR),
    attemptsPerAddress: limit('reset-attempt-address', 30, 15 * 60 * 1000),
  };
}

/** POST /api/auth/forgot-password and /api/auth/reset-password (docs/product.md, "Accounts and security"; docs/architecture.md, "Mail"). */
export function recoveryRoutes(app: Api, deps: AppDeps): void {
  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/forgot-password',
      tag,
      summary: 'Mail a link to reset the password (the same answer whether or not the address has an account)',
      body: forgotPasswordInput,
      access: 'public',
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      const limits = deps.passwordResets;
      const byAddress = await limits.requestsPerAddress.take(clientAddress(c, deps.config.trustProxy));
      if (!byAddress.ok) throw tooManyRequests('tooManyResetRequests', byAddress.retryAfterMs);
      const byEmail = await limits.requestsPerEmail.take(email.toLowerCase());
      if (!byEmail.ok) throw tooManyRequests('tooManyResetRequests', byEmail.retryAfterMs);
      // Looking the address up, writing the token and sending happen after the answer: neither the
      // answer nor its timing says whether the address has an account.
      deps.mailer.track(sendResetMail(deps, email));
      return c.json({ success: true as const, message: MESSAGES.resetLinkSent }, 200);
    },
  );

  app.openapi(
    apiRoute({
      method: 'post',
      path: '/api/auth/reset-password',
      tag,
      summary: 'Set a new password with the token of the mailed link; ends every session of the user',
      body: resetPasswordInput,
      access: 'public',
      answers: { 200: messageAnswer },
    }),
    async (c) => {
      const { token, newPassword } = c.req.valid('json');
      const attempt = await deps.passwordResets.attemptsPerAddress.take(clientAddress(c, deps.config.trustProxy));
      if (!attempt.ok) throw tooManyRequests('tooManyResetRequests', attempt.retryAfterMs);
      await checkResetToken(deps.store.db, token);
      const password = await prepareNewPassword(newPassword);
      await write(deps.store, (w) => resetPassword(w, token, password));
      return c.json({ success: true as const, message: MESSAGES.passwordResetDone }, 200);
    },
  );
}

async function sendResetMail(deps: AppDeps, email: string): Promise<void> {
  const issued = await write(deps.store, (w) => issuePasswordReset(w, email));
  if (!issued) return;
  const { site_title: siteTitle } = await getSiteConfig(deps.store.db);
  const link = `${deps.config.publicUrl.replace(/\/+$/, '')}/reset-password/${issued.token}`;
  await deps.mailer.send(
    passwordResetMail({ to: issued.user.email, username: issued.user.username, language: issued.user.language, link, siteTitle }),
  );
}
