import { Button, makeStyles, mergeClasses, Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '@fluentui/react-components';
import { LocalLanguageRegular } from '@fluentui/react-icons';
import { LANGUAGES } from '@shared/contract/constants';
import { LANGUAGE_NAMES } from '@shared/i18n/i18n';
import { mediaQueryBelow, mediaQueryMinWidth } from '@shared/theme/constants';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage } from '../lib/i18n';

// On a phone the button shows the globe only (its accessible name still names the language): the
// header's tools (notices, transfers, language, user) then fit 390 px beside the brand.
const useStyles = makeStyles({
  name: { display: 'none', [mediaQueryMinWidth('sm')]: { display: 'inline' } },
  // Fluent keeps a text button's 96 px minimum width even when its text is hidden.
  button: { [mediaQueryBelow('sm')]: { minWidth: 0 } },
});

/** Deutsch / English / Français; persisted in localStorage and on the signed-in user (SPEC §2, §7). */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
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
        <Button appearance="transparent" className={mergeClasses(styles.button, className)} icon={<LocalLanguageRegular />} aria-label={t('common:language.switcherLabel', { language: LANGUAGE_NAMES[language] })}>
          <span className={styles.name}>{LANGUAGE_NAMES[language]}</span>
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
