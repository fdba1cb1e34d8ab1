import { DatePicker, type DatePickerProps } from '@fluentui/react-datepicker-compat';
import { currentLanguage } from '@web/lib/i18n';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The link dialog's calendar for the expiry date (issue 32 §2), in its own chunk (share-link-dialog.tsx
 * loads it lazily): month and day names come from the browser's Intl for the page's language, the
 * button and navigation labels from i18n. The chosen day is kept until its end in the maker's zone.
 */
export function ExpiryDatePicker({ value, min, max, onChange, label }: { value: Date; min: Date; max: Date; onChange: (date: Date) => void; label: string }) {
  const { t } = useTranslation();
  const language = currentLanguage();
  const strings = useMemo(() => {
    const names = (count: number, at: (i: number) => Date, options: Intl.DateTimeFormatOptions) => Array.from({ length: count }, (_, i) => new Intl.DateTimeFormat(language, options).format(at(i)));
    // 2023-01-01 was a Sunday: the days from there, the months of 2023.
    const day = (i: number) => new Date(2023, 0, 1 + i);
    const month = (i: number) => new Date(2023, i, 1);
    return {
      months: names(12, month, { month: 'long' }),
      shortMonths: names(12, month, { month: 'short' }),
      days: names(7, day, { weekday: 'long' }),
      shortDays: names(7, day, { weekday: 'narrow' }),
      goToToday: t('roomLinks:calendar.today'),
      prevMonthAriaLabel: t('roomLinks:calendar.prevMonth'),
      nextMonthAriaLabel: t('roomLinks:calendar.nextMonth'),
      prevYearAriaLabel: t('roomLinks:calendar.prevYear'),
      nextYearAriaLabel: t('roomLinks:calendar.nextYear'),
      closeButtonAriaLabel: t('roomLinks:calendar.close'),
    };
  }, [language, t]);
  const format = useMemo(() => new Intl.DateTimeFormat(language, { dateStyle: 'long' }), [language]);
  return (
    <DatePicker
      aria-label={label}
      data-testid="room-link-expiry-date"
      value={value}
      minDate={min}
      maxDate={max}
      strings={strings}
      firstDayOfWeek={(language === 'en' ? 0 : 1) as DatePickerProps['firstDayOfWeek']}
      formatDate={(date) => (date ? format.format(date) : '')}
      onSelectDate={(date) => date && onChange(date)}
    />
  );
}
