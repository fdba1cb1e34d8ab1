import { Body1, Button, Caption1, Card, Checkbox, Field, FieldContextProvider, Input, Label, Link, makeStyles, ProgressBar, Radio, RadioGroup, Select, Spinner, Subtitle1, Textarea, tokens } from '@fluentui/react-components';
import { getPublicForm } from '@shared/api/endpoints/forms';
import { getCaptcha } from '@shared/api/endpoints/pre-login';
import type { CaptchaResponse } from '@shared/contract/auth-escalation';
import type { FormAppearance } from '@shared/contract/form-admin';
import type { FormFooter } from '@shared/contract/form-footer';
import { DISPLAY_ONLY_FIELD_TYPES, type CustomField, type FieldValue, type PublicForm } from '@shared/contract/forms';
import { localisedForm } from '@shared/rules/form-admin-rules';
import { fillTemplate, signatureFile, submissionProblems, type FormProblem } from '@shared/rules/form-rules';
import { formSteps, stepOfField, stepProblems } from '@shared/rules/form-pages-rules';
import { lastShownStep, visibleValues } from '@shared/rules/form-conditions';
import { RatingInput } from './rating-input';
import { isE2eLevel } from '@shared/contract/security-levels';
import { submitFormDelivery, type SendProgress } from '@shared/transfer';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { apiClient } from '@web/lib/api-client';
import { cryptoApi } from '@web/lib/crypto';
import { currentLanguage } from '@web/lib/i18n';
import { formatSize } from '@web/lib/format-size';
import { FileLimits } from './file-limits';
import { useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import useSWR from 'swr';
import { formErrorMessage, numberRangeMessage, serverProblems } from './form-errors';
import { AppearanceFrame } from './form-appearance';
import { LayoutBackdrop, panelOverImage } from './layout-images';
import { readPublicFormUrl, urlDefaults, useEmbedHeight } from './public-form-url';
import { SignatureField } from './signature-field';
import { focusFirstProblem, StepButtons, StepHeading } from './process-pages-fill';
import { FormFooterLinks } from './form-footer';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({
  card: { maxWidth: '640px', margin: '0 auto', padding: '24px', display: 'grid', gap: '16px' },
  form: { display: 'grid', gap: '16px' },
  fileField: { display: 'grid', gap: '4px' },
  captcha: { display: 'flex', gap: '8px', alignItems: 'center', flexWrap: 'wrap' },
  error: { color: tokens.colorPaletteRedForeground1 },
});

/** The form's panel; with `images` (the form's layout images) over its backdrop (./layout-images.tsx), and the form's footer links at its bottom. */
function PublicCard({ children, appearance, images, footer, preview = false }: { children: ReactNode; appearance?: FormAppearance | undefined; images?: Pick<PublicForm, 'backgroundImageUrl' | 'logoUrl'>; footer?: FormFooter | undefined; preview?: boolean }) {
  const styles = useStyles();
  return (
    <LayoutBackdrop images={images} page={!preview}>
      <AppearanceFrame appearance={appearance}>
        <Card className={styles.card} style={panelOverImage(images, appearance?.transparency)}>
          {children}
          <FormFooterLinks footer={footer} />
        </Card>
      </AppearanceFrame>
    </LayoutBackdrop>
  );
}

/** A status page (SPEC §2): inactive, nonexistent, invalid recipient configuration. */
function StatusPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const message = formErrorMessage(error);
  return (
    <PublicCard>
      <PageHeading focusOnMount>{t('forms:status.title')}</PageHeading>
      <Alert type="error" title={t(message.key, message.values)} />
    </PublicCard>
  );
}

const fieldId = (index: number) => `form-field-${index}`;
/** Each option of a choice field has its own id, so its label ticks exactly that option. */
const optionId = (index: number | string, option: number) => `form-field-${index}-option-${option}`;

/**
 * A group of checkboxes under one Field label. Fluent's Field hands its single control id and
 * label to every control inside it, so without this all boxes shared one id: a click on the second
 * label ticked the first box, and each box was named by the group's label instead of its own. The
 * options leave the Field's context (each keeps its own id and label) and the group is named by the
 * Field's label.
 */
function CheckboxGroup({ id, label, required, hint, problem, children }: { id: string; label: string; required?: boolean; hint?: string | undefined; problem?: string | undefined; children: ReactNode }) {
  return (
    <Field label={{ children: label, id: `${id}-label`, htmlFor: undefined }} required={required} hint={hint ? { children: hint, id: `${id}-hint` } : undefined} validationMessage={problem ? { children: problem, id: `${id}-problem` } : undefined}>
      <FieldContextProvider value={undefined}>
        <div role="group" id={id} aria-labelledby={`${id}-label`} aria-describedby={[hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined} aria-invalid={problem ? true : undefined}>
          {children}
        </div>
      </FieldContextProvider>
    </Field>
  );
}

/** The public form page (`/form/{formId}`, no account unless the form says so). */
export function PublicFormPage() {
  const { t } = useTranslation();
  const { formId = '' } = useParams();
  const url = readPublicFormUrl(useLocation().search);
  useEmbedHeight(url.embed);
  const form = useSWR(['forms/public', formId], () => getPublicForm(apiClient, formId), { revalidateOnFocus: false, revalidateIfStale: false, shouldRetryOnError: false });
  if (form.error) return <StatusPage error={form.error} />;
  if (!form.data) return <Spinner label={t('forms:public.loading')} />;
  return <FormFill form={localisedForm(form.data, currentLanguage())} formId={formId} urlValues={urlDefaults(form.data.customFields, url.defaults)} />;
}

function initialValues(form: PublicForm): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of form.customFields) {
    if (DISPLAY_ONLY_FIELD_TYPES.includes(field.type) || field.type === 'file' || field.type === 'signature') continue;
    values[field.name] = field.type === 'checkbox' ? (field.defaultValue ? [field.defaultValue] : []) : field.defaultValue;
  }
  return values;
}

/** Each drawn or typed signature as its PNG file (the server expects it: shared/rules/form-rules.ts signatureFile). */
function signatureUploads(form: PublicForm, values: Record<string, FieldValue>): { name: string; blob: Blob }[] {
  return form.customFields.flatMap((field) => {
    const value = values[field.name];
    if (field.type !== 'signature' || typeof value !== 'string' || value === '') return [];
    const bytes = Uint8Array.from(atob(value.slice(value.indexOf(',') + 1)), (c) => c.charCodeAt(0));
    return [{ name: signatureFile(field.name, value).name, blob: new Blob([bytes], { type: 'image/png' }) }];
  });
}

/**
 * The form itself; `preview` (the Layout tab's live preview) never submits; `urlValues`: defaults
 * from the share URL; `fieldLabels`: translated labels by field name (localisedForm).
 */
export function FormFill({ form, formId, preview = false, urlValues = {} }: { form: PublicForm & { fieldLabels?: Record<string, string>; optionLabels?: Record<string, Record<string, string>> }; formId: string; preview?: boolean; urlValues?: Record<string, FieldValue> }) {
  const { t } = useTranslation();
  const styles = useStyles();
  const [values, setValues] = useState<Record<string, FieldValue>>(() => ({ ...initialValues(form), ...urlValues }));
  const [files, setFiles] = useState<Record<string, File[]>>({});
  const [chosen, setChosen] = useState<string[]>([]);
  const [accepted, setAccepted] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaResponse | null>(null);
  const [captchaAnswer, setCaptchaAnswer] = useState('');
  const [problems, setProblems] = useState<FormProblem[]>([]);
  const [failure, setFailure] = useState<{ key: string; values: Record<string, unknown> } | null>(null);
  const [pending, setPending] = useState(false);
  const [progress, setProgress] = useState<SendProgress | null>(null);
  const [done, setDone] = useState(false);
  const encrypted = isE2eLevel(form.securityLevel);
  // Process pages: one step at a time; every step's values stay in `values`/`files`.
  const steps = useMemo(() => formSteps(form.processPages, form.customFields), [form.processPages, form.customFields]);
  const [stepIndex, setStepIndex] = useState(0);
  const current = Math.min(stepIndex, steps.length - 1);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // After a render: focus the first field with a problem, or the new step's heading.
  const [focusAfter, setFocusAfter] = useState<{ kind: 'problem' | 'step'; n: number } | null>(null);
  useEffect(() => {
    if (focusAfter?.kind === 'step') headingRef.current?.focus();
    if (focusAfter?.kind === 'problem') focusFirstProblem(formRef.current, form.customFields.map((f) => f.name), new Set(problems.map((p) => p.field)));
  }, [focusAfter]); // eslint-disable-line react-hooks/exhaustive-deps -- runs once per request

  const loadCaptcha = () => {
    setCaptchaAnswer('');
    void getCaptcha(apiClient).then(setCaptcha, () => setCaptcha(null));
  };
  useEffect(() => {
    if (form.captcha && !preview) loadCaptcha();
  }, [form.captcha, preview]);

  if (done) {
    return (
      <PublicCard appearance={form.appearance} images={form} footer={form.layout.footer} preview={preview}>
        <PageHeading focusOnMount>{form.layout.successTitle || t('forms:public.successTitle')}</PageHeading>
        <Body1 as="p">{form.layout.successMessage || t('forms:public.successText')}</Body1>
      </PublicCard>
    );
  }

  const allValues = (): Record<string, FieldValue> => {
    const declared = Object.fromEntries(Object.entries(files).map(([name, list]) => [name, list.map((f) => ({ name: f.name, size: f.size, type: f.type }))]));
    const filled = Object.fromEntries(Object.entries(values).filter(([, v]) => (typeof v === 'string' ? v.trim() !== '' : v.length > 0)));
    return { ...filled, ...declared };
  };
  /** Conditional questions: what is shown for the values so far (hidden fields drop their values). */
  const shownNow = visibleValues(form.processPages, form.customFields, allValues());
  // Submit waits on the last page a condition does not hide (later hidden pages are never reached).
  const last = current >= lastShownStep(steps, shownNow.hiddenPages);
  const problemOf = (name: string) => {
    const found = problems.find((p) => p.field === name);
    if (!found) return undefined;
    // "The file is too large" names the field's limit.
    const limit = found.reason === 'fileTooLarge' ? form.customFields.find((f) => f.name === name)?.maxFileSizeKb : null;
    if (limit) return t('forms:public.fileTooLargeLimit', { max: formatSize(limit * 1024, currentLanguage()) });
    const range = found.reason === 'numberOutOfRange' ? numberRangeMessage(form.customFields.find((f) => f.name === name), currentLanguage()) : null;
    if (range) return t(range.key, range.values);
    return t(`forms:problems.${found.reason}`);
  };
  // A field's message goes once the visitor changes it (chosen files clear "Field is required"); the next check runs on Next or Submit.
  const clearProblem = (name: string) => setProblems((list) => (list.some((p) => p.field === name) ? list.filter((p) => p.field !== name) : list));
  const setValue = (name: string, value: FieldValue) => {
    setValues((v) => ({ ...v, [name]: value }));
    clearProblem(name);
  };
  /** Shows problems: on the earliest step that has one, its first field focused. */
  const showProblems = (list: FormProblem[]) => {
    setProblems(list);
    const first = Math.min(...list.map((p) => stepOfField(steps, p.field)).filter((i) => i >= 0));
    if (Number.isFinite(first) && first !== current) setStepIndex(first);
    setFocusAfter((f) => ({ kind: 'problem', n: (f?.n ?? 0) + 1 }));
  };
  const goToStep = (index: number) => {
    // A page a condition hides is passed over, forwards and back.
    const by = index < current ? -1 : 1;
    let target = index;
    while (target > 0 && target < steps.length - 1 && steps[target]!.page && shownNow.hiddenPages.has(steps[target]!.page!.id)) target += by;
    setStepIndex(target);
    setFocusAfter((f) => ({ kind: 'step', n: (f?.n ?? 0) + 1 }));
  };
  /** Next: only this step's fields are checked (the same rules the server runs on submit). */
  const next = () => {
    const local = stepProblems(steps[current]!, shownNow.values, shownNow.hidden);
    setFailure(local.length > 0 ? { key: 'forms:public.fixFields', values: {} } : null);
    if (local.length > 0) return showProblems(local);
    setProblems([]);
    goToStep(current + 1);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    // Enter in a field of an earlier step goes on to the next step, it never submits.
    if (!last) return next();
    if (preview) return;
    const submitted = shownNow.values;
    const local = submissionProblems(form.customFields, submitted, shownNow.hidden);
    if (form.disclaimerEnabled && !accepted) local.push({ field: 'disclaimerAccepted', reason: 'disclaimerNotAccepted' });
    if (form.recipientChoiceRequired && chosen.length === 0) local.push({ field: 'chosenRecipients', reason: 'noRecipients' });
    setProblems(local);
    setFailure(null);
    if (local.length > 0) {
      setFailure({ key: 'forms:public.fixFields', values: {} });
      showProblems(local);
      return;
    }
    setPending(true);
    try {
      // Levels 3/4: files and values are encrypted here, in the crypto Worker (shared/transfer form-submit.ts).
      const { result } = await submitFormDelivery({
        client: apiClient,
        formId,
        form,
        body: {
          values: submitted,
          chosenRecipients: chosen,
          disclaimerAccepted: accepted,
          ...(captcha ? { captchaId: captcha.captchaId, captchaAnswer } : {}),
          language: currentLanguage(),
        },
        files: [...Object.entries(files).flatMap(([name, list]) => (shownNow.hidden.has(name) ? [] : list.map((file) => ({ name: file.name, blob: file })))), ...signatureUploads(form, submitted)],
        onProgress: setProgress,
        ...(encrypted ? { crypto: cryptoApi } : {}),
      });
      if (!result.ok) {
        setFailure({ key: 'forms:public.failed', values: {} });
        return;
      }
      track(ANALYTICS_ACTIONS.formSubmitted);
      if (form.layout.redirectUrl) window.location.assign(form.layout.redirectUrl);
      setDone(true);
    } catch (err) {
      showProblems(serverProblems(err));
      setFailure(formErrorMessage(err, 'forms:public.failed'));
      if (form.captcha) loadCaptcha();
    } finally {
      setPending(false);
    }
  }

  return (
    <PublicCard appearance={form.appearance} images={form} footer={form.layout.footer} preview={preview}>
      {preview ? <Subtitle1 as="h2">{form.name}</Subtitle1> : <PageHeading focusOnMount>{form.name}</PageHeading>}
      {form.layout.description ? <Body1 as="p">{form.layout.description}</Body1> : null}
      <Caption1 as="p">{t('forms:public.mandatoryHint')}</Caption1>
      {encrypted ? <Alert type="info" title={t('forms:e2e.encrypting')} /> : null}
      {failure ? <Alert type="error" title={t(failure.key, failure.values)} /> : null}
      <form ref={formRef} className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <StepHeading steps={steps} current={current} headingRef={headingRef} />
        {/* Every step stays mounted (hidden but the current one): file choices and drawn signatures survive Back and Next. */}
        {steps.map((step, stepNumber) =>
          step.fields.map(({ field, index }) => (
            <div key={field.name} data-form-field={field.name} hidden={stepNumber !== current || shownNow.hidden.has(field.name)}>
              <FieldInput field={field} fields={form.customFields} label={form.fieldLabels?.[field.name] || field.name} optionLabels={form.optionLabels?.[field.name]} index={index} value={values[field.name]} allValues={values} files={files[field.name] ?? []} problem={problemOf(field.name)} onValue={(v) => setValue(field.name, v)} onFiles={(list) => {
                  setFiles((f) => ({ ...f, [field.name]: list }));
                  clearProblem(field.name);
                }} maxUploadSize={form.maxUploadSize} />
            </div>
          )),
        )}
        <StepButtons current={current} last={last} onBack={() => goToStep(current - 1)} />
        {!last ? null : form.optionalRecipients.length > 0 ? (
          <CheckboxGroup id="form-recipients" label={t('forms:public.recipients')} required={form.recipientChoiceRequired} problem={problemOf('chosenRecipients')}>
            {form.optionalRecipients.map((address, i) => (
              <Checkbox key={address} id={optionId('recipients', i)} label={address} checked={chosen.includes(address)} onChange={(_e, d) => setChosen((c) => (d.checked === true ? [...c, address] : c.filter((a) => a !== address)))} />
            ))}
          </CheckboxGroup>
        ) : null}
        {last && form.disclaimerEnabled ? (
          <Field validationMessage={problemOf('disclaimerAccepted')}>
            <Body1 as="p">{form.disclaimerText}</Body1>
            <Checkbox label={t('forms:public.acceptDisclaimer')} checked={accepted} onChange={(_e, d) => setAccepted(d.checked === true)} required />
          </Field>
        ) : null}
        {last && form.captcha ? (
          <div className={styles.captcha}>
            {captcha ? <img src={`data:image/svg+xml;base64,${btoa(captcha.svg)}`} alt={t('forms:public.captchaImage')} width={150} height={50} /> : null}
            <Button onClick={loadCaptcha}>{t('forms:public.newCaptcha')}</Button>
            <Field label={t('forms:public.captcha')} required>
              <Input value={captchaAnswer} onChange={(_e, d) => setCaptchaAnswer(d.value)} autoComplete="off" />
            </Field>
          </div>
        ) : null}
        {progress && pending ? <ProgressBar value={progress.percent / 100} aria-label={t('forms:public.sending', { percent: progress.percent })} /> : null}
        {last ? (
          <Button type="submit" appearance="primary" disabled={pending}>
            {t('forms:public.submit')}
          </Button>
        ) : null}
      </form>
    </PublicCard>
  );
}

interface FieldInputProps {
  field: CustomField;
  /** Every field of the form: a text template's placeholders name them. */
  fields: readonly CustomField[];
  /** The label shown: the translated one, else the field's name (which stays the key of the value). */
  label: string;
  index: number;
  optionLabels: Record<string, string> | undefined;
  value: FieldValue | undefined;
  allValues: Record<string, FieldValue>;
  files: File[];
  problem: string | undefined;
  onValue: (value: FieldValue) => void;
  onFiles: (files: File[]) => void;
  /** The submission's total limit in bytes (0: not known, not shown). */
  maxUploadSize: number;
}

function FieldInput({ field, fields, label, optionLabels, index, value, allValues, files, problem, onValue, onFiles, maxUploadSize }: FieldInputProps) {
  const styles = useStyles();
  // The translated text of an option; the value submitted stays the option itself.
  const shown = (option: string) => optionLabels?.[option] || option;
  const text = typeof value === 'string' ? value : '';
  const common = { label, required: field.required, hint: field.hint || undefined, validationMessage: problem };
  switch (field.type) {
    case 'link':
      return (
        <Link href={field.defaultValue} target="_blank" rel="noopener noreferrer">
          {label}
        </Link>
      );
    case 'textTemplate':
      return <Body1 as="p">{fillTemplate(field.defaultValue, allValues, fields)}</Body1>;
    case 'signature':
      return <SignatureField field={{ ...field, name: label }} id={fieldId(index)} problem={problem} onValue={onValue} />;
    case 'file':
      return (
        <div className={styles.fileField}>
          <Label htmlFor={fieldId(index)} required={field.required}>
            {label}
          </Label>
          <input
            id={fieldId(index)}
            type="file"
            multiple
            accept={field.allowedFileTypes || undefined}
            aria-describedby={`${fieldId(index)}-hint ${fieldId(index)}-limits`}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => onFiles([...(event.target.files ?? [])])}
          />
          <Caption1 id={`${fieldId(index)}-hint`}>{field.hint || files.map((f) => f.name).join(', ')}</Caption1>
          <FileLimits id={`${fieldId(index)}-limits`} maxFileSizeKb={field.maxFileSizeKb} maxUploadSize={maxUploadSize} />
          {problem ? (
            <Caption1 role="alert" className={styles.error}>
              {problem}
            </Caption1>
          ) : null}
        </div>
      );
    case 'checkbox':
      return (
        <CheckboxGroup id={fieldId(index)} label={label} required={field.required} hint={field.hint || undefined} problem={problem}>
          {field.options.map((option, i) => {
            const list = Array.isArray(value) ? (value as string[]) : [];
            return <Checkbox key={option} id={optionId(index, i)} label={shown(option)} checked={list.includes(option)} onChange={(_e, d) => onValue(d.checked === true ? [...list, option] : list.filter((o) => o !== option))} />;
          })}
        </CheckboxGroup>
      );
    case 'radio':
      return (
        <Field {...common}>
          <RadioGroup value={text} onChange={(_e, d) => onValue(d.value)}>
            {field.options.map((option, i) => (
              <Radio key={option} id={optionId(index, i)} value={option} label={shown(option)} />
            ))}
          </RadioGroup>
        </Field>
      );
    case 'dropdown':
      return (
        <Field {...common}>
          <Select value={text} onChange={(_e, d) => onValue(d.value)}>
            <option value="" />
            {field.options.map((option) => (
              <option key={option} value={option}>
                {shown(option)}
              </option>
            ))}
          </Select>
        </Field>
      );
    case 'date':
      return (
        <Field {...common}>
          <Input type="date" value={text} min={field.startDate ?? undefined} max={field.endDate ?? undefined} onChange={(_e, d) => onValue(d.value)} />
        </Field>
      );
    case 'number':
      return (
        <Field {...common}>
          <Input type="number" inputMode={field.integer ? 'numeric' : 'decimal'} value={text} min={field.min ?? undefined} max={field.max ?? undefined} step={field.step ?? (field.integer ? 1 : 'any')} onChange={(_e, d) => onValue(d.value)} />
        </Field>
      );
    case 'rating':
      return <RatingInput field={field} common={common} value={text} onValue={onValue} />;
    case 'email':
      return (
        <Field {...common}>
          <Input type="email" value={text} onChange={(_e, d) => onValue(d.value)} />
        </Field>
      );
    default:
      return (
        <Field {...common}>
          {field.type === 'text' && (field.textAreaSize ?? 1) > 1 ? <Textarea value={text} rows={field.textAreaSize ?? 2} onChange={(_e, d) => onValue(d.value)} /> : <Input value={text} onChange={(_e, d) => onValue(d.value)} />}
        </Field>
      );
  }
}
