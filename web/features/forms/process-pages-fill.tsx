import { Body1, Button, makeStyles, Subtitle2 } from '@fluentui/react-components';
import type { FormStep } from '@shared/rules/form-pages-rules';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { PageIcon } from './page-icons';

/**
 * The public page's steps (shared/contract/form-pages.ts): the heading "Step 2 of 3: <title>" with
 * the page's icon (a page with an icon and no title is named by its icon) and description, and Back / Next. FormFill (public-form-page.tsx) keeps the values of
 * every step, checks a step on Next with the shared rules (form-pages-rules.ts stepProblems) and
 * shows the disclaimer, captcha and Submit on the last step only.
 */

const useStyles = makeStyles({
  buttons: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  heading: { margin: 0, display: 'flex', alignItems: 'center', gap: '8px' },
});

export function StepHeading({ steps, current, headingRef }: { steps: readonly FormStep[]; current: number; headingRef: RefObject<HTMLHeadingElement | null> }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const step = steps[current];
  if (!step?.page) return null;
  const title = step.page.title.trim() || (step.page.icon ? t(`forms:pages.icons.${step.page.icon}`) : '');
  const values = { n: current + 1, count: steps.length, title };
  return (
    <>
      <h2 ref={headingRef} tabIndex={-1} className={styles.heading}>
        <PageIcon icon={step.page.icon} />
        <Subtitle2>{title ? t('forms:pages.step', values) : t('forms:pages.stepUntitled', values)}</Subtitle2>
      </h2>
      {step.page.description ? <Body1 as="p">{step.page.description}</Body1> : null}
    </>
  );
}

/** Back (keeps every value) and Next (type submit: Enter in a field goes on, it never submits from here). */
export function StepButtons({ current, last, onBack }: { current: number; last: boolean; onBack: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  if (current === 0 && last) return null;
  return (
    <div className={styles.buttons}>
      {current > 0 ? <Button onClick={onBack}>{t('forms:pages.back')}</Button> : null}
      {last ? null : (
        <Button type="submit" appearance="primary">
          {t('forms:pages.next')}
        </Button>
      )}
    </div>
  );
}

const FOCUSABLE = 'input:not([type="hidden"]), select, textarea, button, [tabindex]:not([tabindex="-1"])';

/** Focuses the first control of the first field (by name, in `names` order) that has a problem. */
export function focusFirstProblem(container: HTMLElement | null, names: readonly string[], problemFields: ReadonlySet<string>): void {
  if (!container) return;
  const name = names.find((n) => problemFields.has(n));
  if (name === undefined) return;
  const wrapper = [...container.querySelectorAll<HTMLElement>('[data-form-field]')].find((el) => el.dataset.formField === name);
  wrapper?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
}
