import type de from './de.json';

/* The type of the rides' texts (de.json beside this file) for `t()`'s keys (i18n/areas.ts). */
declare module '../../i18n/areas.js' {
  interface AreaTexts {
    rides: Omit<typeof de, 'serverMessages' | 'refusalActions'>;
  }
}
