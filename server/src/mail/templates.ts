import type { Language } from '@fankurve/shared';
import type { Mail } from './mailer.js';

/*
 * The mail texts, German and English (the recipient's `language`). Plain text first; the HTML part
 * is the same text with the link clickable. Values are escaped for the HTML part.
 */

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function html(paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n');
  const button = link ? `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : '';
  return `<!doctype html>\n<html><body style="font-family: sans-serif">\n${body}${button}\n</body></html>`;
}

export interface ResetMailInput {
  to: string;
  username: string;
  language: Language;
  link: string;
  siteTitle: string;
}

export function passwordResetMail({ to, username, language, link, siteTitle }: ResetMailInput): Mail {
  const de = language === 'de';
  const subject = de ? `${siteTitle}: Passwort zurücksetzen` : `${siteTitle}: reset your password`;
  const lines = de
    ? [
        `Hallo ${username},`,
        `jemand (hoffentlich du) hat verlangt, das Passwort deines Kontos bei ${siteTitle} zurückzusetzen. Mit diesem Link setzt du ein neues Passwort:`,
      ]
    : [
        `Hello ${username},`,
        `someone (hopefully you) asked to reset the password of your ${siteTitle} account. Use this link to set a new password:`,
      ];
  const after = de
    ? [
        'Der Link ist eine Stunde lang gültig und funktioniert nur einmal. Danach bist du auf allen Geräten abgemeldet.',
        'Wenn du das nicht warst, ignoriere diese Mail einfach: dein Passwort bleibt, wie es ist.',
      ]
    : [
        'The link is valid for one hour and works only once. Afterwards you are signed out on every device.',
        'If this was not you, just ignore this mail: your password stays as it is.',
      ];
  return {
    to,
    subject,
    text: [...lines, link, ...after].join('\n\n') + '\n',
    html: html([...lines, ...after], { href: link, label: de ? 'Neues Passwort setzen' : 'Set a new password' }),
  };
}

export interface AccountCreatedMailInput extends ResetMailInput {
  /** How long the link is valid, in days. */
  days: number;
}

/**
 * The mail of a member an admin imported (docs/architecture.md, Member import): their account is
 * there, and the link (the password reset's) sets their first password.
 */
export function accountCreatedMail({ to, username, language, link, siteTitle, days }: AccountCreatedMailInput): Mail {
  const de = language === 'de';
  const subject = de ? `${siteTitle}: dein Konto ist angelegt` : `${siteTitle}: your account is ready`;
  const lines = de
    ? [
        `Hallo ${username},`,
        `dein Fanclub hat dir ein Konto bei ${siteTitle} angelegt. Dein Benutzername ist: ${username}`,
        'Mit diesem Link setzt du dein Passwort und kannst dich danach anmelden:',
      ]
    : [
        `Hello ${username},`,
        `your fan club has created an account for you at ${siteTitle}. Your username is: ${username}`,
        'Use this link to set your password; then you can sign in:',
      ];
  const after = de
    ? [
        `Der Link ist ${days} Tage lang gültig und funktioniert nur einmal. Danach hilft „Passwort vergessen?“ auf der Anmeldeseite.`,
      ]
    : [`The link is valid for ${days} days and works only once. After that, use "Forgot password?" on the sign-in page.`];
  return {
    to,
    subject,
    text: [...lines, link, ...after].join('\n\n') + '\n',
    html: html([...lines, ...after], { href: link, label: de ? 'Passwort setzen' : 'Set your password' }),
  };
}

/** One piece of work waiting for an admin. */
export type DigestItem =
  | { kind: 'registration'; username: string; email: string }
  | { kind: 'paid' | 'received'; username: string; eventTitle: string; eventDate: string };

export interface DigestMailInput {
  to: string;
  username: string;
  language: Language;
  items: DigestItem[];
  tasksLink: string;
  siteTitle: string;
}

export function adminDigestMail({ to, username, language, items, tasksLink, siteTitle }: DigestMailInput): Mail {
  const de = language === 'de';
  const line = (item: DigestItem): string => {
    if (item.kind === 'registration') {
      return de
        ? `• Neue Registrierung: ${item.username} (${item.email})`
        : `• New registration: ${item.username} (${item.email})`;
    }
    const event = `${item.eventTitle}, ${item.eventDate.slice(0, 16)}`;
    if (item.kind === 'paid')
      return de ? `• ${item.username} meldet bezahlt: ${event}` : `• ${item.username} reports paid: ${event}`;
    return de ? `• ${item.username} meldet erhalten: ${event}` : `• ${item.username} reports received: ${event}`;
  };
  const subject = de ? `${siteTitle}: ${items.length} neue Aufgabe(n)` : `${siteTitle}: ${items.length} new task(s)`;
  const intro = de ? `Hallo ${username},\n\nes wartet Arbeit auf dich:` : `Hello ${username},\n\nthere is work waiting for you:`;
  const outro = de ? 'Zu den offenen Aufgaben:' : 'To the pending tasks:';
  const list = items.map(line).join('\n');
  return {
    to,
    subject,
    text: `${intro}\n\n${list}\n\n${outro}\n${tasksLink}\n`,
    html: html([intro, list], { href: tasksLink, label: outro }),
  };
}

export interface ReminderMailInput {
  to: string;
  username: string;
  language: Language;
  event: { title: string; date: string; answer_deadline: string | null };
  link: string;
  siteTitle: string;
}

/** `01.03.2030, 15:30` / `1 Mar 2030, 15:30`: a wall-clock time as it is (no zone shift). */
function wallClock(value: string, language: Language): string {
  const parsed = new Date(`${value.slice(0, 19).replace(' ', 'T')}Z`);
  if (Number.isNaN(parsed.getTime())) return value;
  return new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(parsed);
}

/**
 * An admin's reminder by hand to a member push does not reach (docs/product.md, Answer deadlines and
 * reminders): the event, its deadline if any, and the link to answer.
 */
export function reminderMail({ to, username, language, event, link, siteTitle }: ReminderMailInput): Mail {
  const de = language === 'de';
  const when = wallClock(event.date, language);
  const subject = de ? `${siteTitle}: Noch keine Antwort – ${event.title}` : `${siteTitle}: No answer yet – ${event.title}`;
  const question = de
    ? `${event.title} am ${when}: bist du dabei? Sag bitte zu oder ab.`
    : `${event.title} on ${when}: are you going? Please let the club know.`;
  const deadline = event.answer_deadline
    ? de
      ? `Antworten bis ${wallClock(event.answer_deadline, language)}.`
      : `Answer by ${wallClock(event.answer_deadline, language)}.`
    : null;
  const greeting = de ? `Hallo ${username},` : `Hello ${username},`;
  const label = de ? 'Zur Veranstaltung:' : 'To the event:';
  const paragraphs = [greeting, deadline ? `${question}\n${deadline}` : question];
  return {
    to,
    subject,
    text: `${paragraphs.join('\n\n')}\n\n${label}\n${link}\n`,
    html: html(paragraphs, { href: link, label }),
  };
}
