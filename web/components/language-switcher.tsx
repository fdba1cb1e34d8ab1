import { Button, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { LocalLanguageRegular } from '@fluentui/react-icons';
import { LANGUAGES } from '@shared/contract/constants';
import { LANGUAGE_NAMES } from '@shared/i18n/i18n';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from '../lib/i18n';

/** Deutsch / English / Français; persisted in localStorage and on the signed-in user (SPEC §2, §7). */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const language = currentLanguage();
  void i18n.language; // re-render on change
  return (
    <Menu
      checkedValues={{ language: [language] }}
      onCheckedValueChange={(_event, data) => {
        const next = data.checkedItems[0];
        if (next) void changeLanguage(next);
      }}
    >
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="transparent" className={className} icon={<LocalLanguageRegular />} aria-label={t('common:language.switcherLabel', { language: LANGUAGE_NAMES[language] })}>
          {LANGUAGE_NAMES[language]}
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {LANGUAGES.map((code) => (
            <MenuItemRadio key={code} name="language" value={code} lang={code}>
              {LANGUAGE_NAMES[code]}
            </MenuItemRadio>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
