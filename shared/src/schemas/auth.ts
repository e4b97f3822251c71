import { z } from 'zod';
import { LANGUAGES, MIN_PASSWORD_LENGTH, SCOPES } from '../constants.js';
import { PASSWORD_MAX_LENGTH } from '../rules/password.js';
import { checkUsername, normaliseUsername } from '../rules/usernames.js';
import { msg } from './common.js';
import { inviteToken } from './invites.js';

/** The longest email address taken (MESSAGES.emailTooLong names it). */
export const EMAIL_MAX_LENGTH = 200;

/**
 * An email address: the length is checked before the form, so an over-long one is answered with
 * the field and its limit (emailTooLong) rather than a bare invalidInput.
 */
export const emailSchema = () =>
  z.string(msg('invalidInput')).trim().max(EMAIL_MAX_LENGTH, msg('emailTooLong')).email(msg('invalidInput'));

/**
 * A new username: normalised (NFKC, trimmed), refused with the rule's message code (rules/usernames.ts).
 * Input far beyond USERNAME_MAX_LENGTH is refused before normalising, with the same usernameTooLong.
 */
export const usernameSchema = z
  .string(msg('invalidInput'))
  .max(200, msg('usernameTooLong'))
  .transform((value, ctx) => {
    const checked = checkUsername(value);
    if (checked.ok) return checked.value;
    ctx.addIssue({ code: 'custom', message: checked.code });
    return z.NEVER;
  });
const newPassword = z
  .string(msg('passwordTooShort'))
  .min(MIN_PASSWORD_LENGTH, msg('passwordTooShort'))
  .max(PASSWORD_MAX_LENGTH, msg('passwordTooLong'));

export const registerInput = z.object({
  username: usernameSchema,
  email: emailSchema(),
  password: newPassword,
  /** The language chosen on the registration page (German when left out). */
  language: z.enum(LANGUAGES, msg('invalidInput')).optional(),
  /** The token of an invite link (docs/architecture.md, Invites): counts one of its registrations, approved at once when it says so. */
  invite: inviteToken.optional(),
});
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z.object({
  // Normalised like a stored name, but never checked against the username rules: a sign-in only says invalidCredentials.
  username: z
    .string(msg('invalidCredentials'))
    .max(200, msg('invalidCredentials'))
    .transform(normaliseUsername)
    .refine((value) => value.length > 0, msg('invalidCredentials')),
  password: z.string(msg('invalidCredentials')).min(1, msg('invalidCredentials')).max(200),
});
export type LoginInput = z.infer<typeof loginInput>;

export const changePasswordInput = z.object({
  currentPassword: z.string(msg('currentPasswordWrong')).max(200),
  newPassword,
});
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

/** POST /api/me/erase: the member's password confirms it. */
export const eraseAccountInput = z.object({
  password: z.string(msg('erasurePasswordWrong')).max(200, msg('erasurePasswordWrong')),
});
export type EraseAccountInput = z.infer<typeof eraseAccountInput>;

/** POST /api/auth/forgot-password. */
export const forgotPasswordInput = z.object({
  email: emailSchema(),
});
export type ForgotPasswordInput = z.infer<typeof forgotPasswordInput>;

/** POST /api/auth/reset-password: the token of the mailed link and the new password. */
export const resetPasswordInput = z.object({
  token: z.string(msg('invalidResetToken')).min(1, msg('invalidResetToken')).max(200, msg('invalidResetToken')),
  newPassword,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordInput>;

export const updateUserInput = z
  .object({
    username: usernameSchema.optional(),
    email: emailSchema().optional(),
    scope: z.enum(SCOPES).optional(),
    language: z.enum(LANGUAGES).optional(),
  })
  .strict();
export type UpdateUserInput = z.infer<typeof updateUserInput>;
