import type { Language } from '@fankurve/shared/constants';

const locale = (language: Language) => (language === 'en' ? 'en-GB' : 'de-DE');

/** A stored timestamp (ISO, UTC) as a local date: `1. März 2026` (de), `1 March 2026` (en). */
export function formatDate(value: string, language: Language): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale(language), { day: 'numeric', month: 'long', year: 'numeric' }).format(date);
}

/** A stored timestamp as a local date and time: `01.03.2026, 11:00` (de), `01/03/2026, 11:00` (en). */
export function formatDateTime(value: string, language: Language): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale(language), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}
