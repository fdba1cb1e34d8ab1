import { Body1, Button, Caption1, Card, Field, Input, makeStyles, Select, Subtitle2, Textarea } from '@fluentui/react-components';
import { FORM_PAGE_ICONS, FORM_PAGES_MAX, type FormPageIcon, type ProcessPage } from '@shared/contract/form-pages';
import type { CustomField } from '@shared/contract/forms';
import type { FormProblem } from '@shared/rules/form-rules';
import { FormDialog } from '@web/components/form-dialog';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageIcon } from './page-icons';

/**
 * Process pages in the Custom fields tab (shared/contract/form-pages.ts): add, rename, describe,
 * reorder and delete pages. Deleting a page that still has fields asks which page they move to.
 */

const useStyles = makeStyles({
  section: { display: 'grid', gap: '8px' },
  card: { display: 'grid', gap: '8px', padding: '12px' },
  row: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'end' },
});

/** A short id that stays when the page is renamed or moved (letters and digits; crypto works on plain http too). */
function newPageId(existing: readonly ProcessPage[]): string {
  for (;;) {
    const id = `p${Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(36).padStart(2, '0')).join('')}`;
    if (!existing.some((p) => p.id === id)) return id;
  }
}

interface Props {
  pages: ProcessPage[];
  fields: CustomField[];
  problems: readonly FormProblem[];
  onChange: (pages: ProcessPage[], fields: CustomField[]) => void;
}

export function ProcessPagesEditor({ pages, fields, problems, onChange }: Props) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [deleting, setDeleting] = useState<{ index: number; target: string } | null>(null);
  const problemAt = (index: number, key: string) => {
    const found = problems.find((p) => p.field === `processPages.${index}.${key}`);
    return found ? t(`forms:problems.${found.reason}`) : undefined;
  };
  const update = (index: number, changes: Partial<ProcessPage>) => onChange(pages.map((p, i) => (i === index ? { ...p, ...changes } : p)), fields);
  const move = (index: number, by: number) => {
    const next = [...pages];
    const [moved] = next.splice(index, 1);
    next.splice(index + by, 0, moved!);
    onChange(next, fields);
  };
  // Fields without a page are on the first one.
  const fieldsOn = (index: number) => fields.filter((f) => f.page === pages[index]!.id || (index === 0 && (f.page === null || !pages.some((p) => p.id === f.page))));
  const remove = (index: number, target: string | null) => {
    const id = pages[index]!.id;
    const rest = pages.filter((_p, i) => i !== index);
    const onRemoved = index === 0 ? new Set(fieldsOn(0)) : new Set<CustomField>();
    // With the last page gone the form is one page again: every field loses its page.
    onChange(rest, fields.map((f) => (rest.length === 0 ? { ...f, page: null } : f.page === id || onRemoved.has(f) ? { ...f, page: target } : f)));
  };
  const askRemove = (index: number) => {
    if (fieldsOn(index).length === 0 || pages.length === 1) remove(index, null);
    else setDeleting({ index, target: pages.find((_p, i) => i !== index)!.id });
  };
  const confirmRemove = (event: FormEvent) => {
    // The dialog is a form inside the editor's form (React events cross the portal): do not save the editor.
    event.preventDefault();
    event.stopPropagation();
    if (deleting) remove(deleting.index, deleting.target);
    setDeleting(null);
  };
  const titleOf = (page: ProcessPage, index: number) => page.title.trim() || (page.icon ? t(`forms:pages.icons.${page.icon}`) : t('forms:pages.page', { n: index + 1 }));

  return (
    <section className={styles.section} aria-labelledby="form-process-pages">
      <Subtitle2 as="h2" id="form-process-pages">
        {t('forms:pages.title')}
      </Subtitle2>
      <Body1 as="p">{t('forms:pages.intro')}</Body1>
      {pages.map((page, index) => (
        <Card key={page.id} className={styles.card} role="group" aria-label={titleOf(page, index)}>
          <div className={styles.row}>
            <Field label={t('forms:pages.pageTitle')} validationMessage={problemAt(index, 'title')}>
              <Input value={page.title} onChange={(_e, d) => update(index, { title: d.value })} />
            </Field>
            <Field label={t('forms:pages.icon')}>
              <Select value={page.icon ?? ''} onChange={(_e, d) => update(index, { icon: d.value === '' ? null : (d.value as FormPageIcon) })}>
                <option value="">{t('forms:pages.noIcon')}</option>
                {FORM_PAGE_ICONS.map((icon) => (
                  <option key={icon} value={icon}>
                    {t(`forms:pages.icons.${icon}`)}
                  </option>
                ))}
              </Select>
            </Field>
            <PageIcon icon={page.icon} />
            <Caption1>{t('forms:pages.id', { id: page.id, count: fieldsOn(index).length })}</Caption1>
          </div>
          {problemAt(index, 'id') ? <Caption1 role="alert">{problemAt(index, 'id')}</Caption1> : null}
          {problemAt(index, 'fields') ? <Caption1 role="alert">{problemAt(index, 'fields')}</Caption1> : null}
          <Field label={t('forms:pages.description')}>
            <Textarea value={page.description} onChange={(_e, d) => update(index, { description: d.value })} rows={2} />
          </Field>
          <div className={styles.row}>
            <Button disabled={index === 0} onClick={() => move(index, -1)}>
              {t('forms:pages.up')}
            </Button>
            <Button disabled={index === pages.length - 1} onClick={() => move(index, 1)}>
              {t('forms:pages.down')}
            </Button>
            <Button onClick={() => askRemove(index)}>{t('forms:pages.remove', { title: titleOf(page, index) })}</Button>
          </div>
        </Card>
      ))}
      <div>
        <Button disabled={pages.length >= FORM_PAGES_MAX} onClick={() => onChange([...pages, { id: newPageId(pages), title: '', description: '', icon: null, condition: null }], fields)}>
          {t('forms:pages.add')}
        </Button>
      </div>
      <FormDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={deleting ? t('forms:pages.removeTitle', { title: titleOf(pages[deleting.index]!, deleting.index) }) : ''}
        onSubmit={confirmRemove}
        submitLabel={t('forms:pages.removeConfirm')}
      >
        {deleting ? (
          <Field label={t('forms:pages.moveFieldsTo', { count: fieldsOn(deleting.index).length })}>
            <Select value={deleting.target} onChange={(_e, d) => setDeleting({ ...deleting, target: d.value })}>
              {pages.map((page, index) =>
                index === deleting.index ? null : (
                  <option key={page.id} value={page.id}>
                    {titleOf(page, index)}
                  </option>
                ),
              )}
            </Select>
          </Field>
        ) : null}
      </FormDialog>
    </section>
  );
}

/** The page select of one field in the Custom fields tab (shown while the form has pages). */
export function FieldPageSelect({ field, pages, problem, onPage }: { field: CustomField; pages: readonly ProcessPage[]; problem: string | undefined; onPage: (page: string) => void }) {
  const { t } = useTranslation();
  if (pages.length === 0) return null;
  return (
    <Field label={t('forms:pages.fieldPage')} validationMessage={problem}>
      <Select value={field.page !== null && pages.some((p) => p.id === field.page) ? field.page : pages[0]!.id} onChange={(_e, d) => onPage(d.value)}>
        {pages.map((page, index) => (
          <option key={page.id} value={page.id}>
            {page.title.trim() || (page.icon ? t(`forms:pages.icons.${page.icon}`) : t('forms:pages.page', { n: index + 1 }))}
          </option>
        ))}
      </Select>
    </Field>
  );
}
