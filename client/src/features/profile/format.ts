import type { Language } from '@fankurve/shared/constants';
import { formatDay, formatInstant } from '../../i18n/dates.js';

/** A stored timestamp (ISO, UTC) as a local date: `01.03.2026` (de), `1 Mar 2026` (en). */
export const formatDate = (value: string, language: Language): string => formatDay(value, language);

/** A stored timestamp as a local date and time: `01.03.2026, 11:00` (de), `1 Mar 2026, 11:00` (en). */
export const formatDateTime = (value: string, language: Language): string => formatInstant(value, language);
