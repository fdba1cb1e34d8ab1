import { Button, Caption1, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, makeStyles, Select, Subtitle2, Switch, Textarea } from '@fluentui/react-components';
import { FORM_EMBED_SCRIPT_PATH } from '@shared/contract/form-embed';
import type { Form } from '@shared/contract/forms';
import { Alert } from '@web/components/alert';
import { useNotify } from '@web/lib/toasts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { prefillable, publicFormUrl } from './public-form-url';

const useStyles = makeStyles({
  bar: { display: 'flex', gap: '8px', flexWrap: 'wrap', alignItems: 'center' },
  content: { display: 'grid', gap: '16px' },
  row: { display: 'flex', gap: '8px', alignItems: 'end', flexWrap: 'wrap' },
  grow: { flexGrow: 1, minWidth: '240px' },
  section: { display: 'grid', gap: '8px' },
  code: { fontFamily: 'monospace' },
});

/** Escapes a value for a double-quoted HTML attribute of the snippets. */
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** A read-only value with its copy button (SPEC §2 "copy"). */
function CopyField({ label, value, multiline = false }: { label: string; value: string; multiline?: boolean }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => notify('success', t('formsShare:share.copied')),
      () => notify('error', t('formsShare:share.copyFailed')),
    );
  return (
    <div className={styles.row}>
      <Field label={label} className={styles.grow}>
        {multiline ? <Textarea value={value} readOnly rows={3} className={styles.code} /> : <Input value={value} readOnly className={styles.code} />}
      </Field>
      <Button onClick={() => void copy()} aria-label={`${t('formsShare:share.copy')}: ${label}`}>
        {t('formsShare:share.copy')}
      </Button>
    </div>
  );
}

/**
 * The share bar of the form configuration (SPEC §2): "Share" opens the dialog with the share URL,
 * copy, the URL helper (the 'plain' switch and default values per custom field) and the iframe
 * and script snippets; "Open in new tab" opens the public page. Both are off while the page has
 * unsaved changes (the public page would show the saved form, not what the administrator sees).
 */
export function ShareBar({ form, dirty }: { form: Form; dirty: boolean }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [open, setOpen] = useState(false);
  const [plain, setPlain] = useState(false);
  const [defaults, setDefaults] = useState<Record<string, string>>({});
  const fields = form.customFields.filter(prefillable);
  const helperUrl = publicFormUrl(form.link, { plain, defaults });
  const query = new URL(helperUrl).search.replace(/^\?/, '');
  const origin = new URL(form.link).origin;
  const iframe = `<iframe src="${attribute(helperUrl)}" title="${attribute(form.name)}" style="width:100%;height:800px;border:0"></iframe>`;
  const script = `<script src="${attribute(origin + FORM_EMBED_SCRIPT_PATH)}" data-form="${attribute(form.url)}"${query ? ` data-query="${attribute(query)}"` : ''} data-title="${attribute(form.name)}"></script>`;

  return (
    <div className={styles.section}>
      <div className={styles.bar}>
        <Button appearance="primary" disabled={dirty} onClick={() => setOpen(true)}>
          {t('formsShare:share.open')}
        </Button>
        <Button disabled={dirty} onClick={() => window.open(form.link, '_blank', 'noopener,noreferrer')}>
          {t('formsShare:share.openInTab')}
        </Button>
      </div>
      {dirty ? <Caption1>{t('formsShare:share.unsaved')}</Caption1> : null}
      <Dialog open={open} onOpenChange={(_e, d) => setOpen(d.open)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t('formsShare:share.title')}</DialogTitle>
            <DialogContent className={styles.content}>
              {form.active ? null : <Alert type="warning" title={t('formsShare:share.inactive')} />}
              <CopyField label={t('formsShare:share.url')} value={form.link} />
              <section className={styles.section} aria-label={t('formsShare:share.helper')}>
                <Subtitle2 as="h2">{t('formsShare:share.helper')}</Subtitle2>
                <Switch label={t('formsShare:share.plain')} checked={plain} onChange={(_e, d) => setPlain(d.checked)} />
                {fields.length > 0 ? <Caption1>{t('formsShare:share.defaultsHint')}</Caption1> : null}
                {fields.map((field) => {
                  const label = t('formsShare:share.defaultFor', { name: field.name });
                  const value = defaults[field.name] ?? '';
                  const change = (next: string) => setDefaults((d) => ({ ...d, [field.name]: next }));
                  return (
                    <Field key={field.name} label={label}>
                      {field.options.length > 0 && field.type !== 'checkbox' ? (
                        <Select value={value} onChange={(_e, d) => change(d.value)}>
                          <option value="" />
                          {field.options.map((option) => (
                            <option key={option} value={option}>
                              {option}
                            </option>
                          ))}
                        </Select>
                      ) : (
                        <Input value={value} type={field.type === 'date' ? 'date' : 'text'} onChange={(_e, d) => change(d.value)} />
                      )}
                    </Field>
                  );
                })}
                <CopyField label={t('formsShare:share.helperUrl')} value={helperUrl} />
              </section>
              <section className={styles.section} aria-label={t('formsShare:share.embed')}>
                <Subtitle2 as="h2">{t('formsShare:share.embed')}</Subtitle2>
                <Caption1>{t('formsShare:share.embedNote')}</Caption1>
                <CopyField label={t('formsShare:share.iframe')} value={iframe} multiline />
                <CopyField label={t('formsShare:share.script')} value={script} multiline />
              </section>
            </DialogContent>
            <DialogActions>
              <Button onClick={() => window.open(helperUrl, '_blank', 'noopener,noreferrer')}>{t('formsShare:share.openInTab')}</Button>
              <Button appearance="primary" onClick={() => setOpen(false)}>
                {t('formsShare:share.close')}
              </Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </div>
  );
}
