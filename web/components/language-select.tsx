import { Select } from '@fluentui/react-components';
import { LANGUAGES, type Language } from '@shared/contract/constants';
import { LANGUAGE_NAMES } from '@shared/i18n/i18n';

/** A select of the interface languages, each named in itself (Deutsch, English, Français). */
export function LanguageSelect({ value, onChange }: { value: Language; onChange: (language: Language) => void }) {
  return (
    <Select value={value} onChange={(_e, data) => onChange(data.value as Language)}>
      {LANGUAGES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LANGUAGE_NAMES[code]}
        </option>
      ))}
    </Select>
  );
}
