import { LANGUAGES } from '@fankurve/shared/constants';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { applyLanguage, currentLanguage, isLanguage } from '../i18n/index.js';

/** Language choice before sign-in (stored on the device; after sign-in the profile's language applies). */
export function LanguageSelect() {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="language-select">
      <label htmlFor={id}>{t('language.label')}</label>
      <select
        id={id}
        value={currentLanguage()}
        onChange={(event) => {
          if (isLanguage(event.target.value)) void applyLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {t(`language.${language}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
