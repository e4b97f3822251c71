import type de from './de.json';

/* The type of the bus's texts (de.json beside this file) for `t()`'s keys (i18n/areas.ts). */
declare module '../../i18n/areas.js' {
  interface AreaTexts {
    boardings: Omit<typeof de, 'serverMessages' | 'refusalActions'>;
  }
}
