import { Body1, Button, Link, makeStyles, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow } from '@fluentui/react-components';
import { ApiError } from '@shared/api/api-error';
import { listForms } from '@shared/api/endpoints/forms';
import { FORM_TEMPLATES_LINK } from '@shared/contract/form-templates';
import { FORM_WEB_LINKS } from '@shared/contract/forms';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import useSWR from 'swr';
import { ANALYTICS_ACTIONS } from '@web/lib/analytics/actions';
import { useEffect } from 'react';
import { track } from '@web/lib/analytics/analytics';

const useStyles = makeStyles({ bar: { display: 'flex', justifyContent: 'flex-end', gap: '8px', margin: '12px 0' } });

/** The forms administration (ROLE_SECUFORMS, ROLE_ADMIN): every form, a new one. */
export function FormsListPage() {
  const { t } = useTranslation();
  const styles = useStyles();
  const navigate = useNavigate();
  const { data, error } = useSWR('forms/list', () => listForms(apiClient), { revalidateOnFocus: false, shouldRetryOnError: false });
  const denied = error instanceof ApiError && error.status === 403;
  useEffect(() => track(ANALYTICS_ACTIONS.formsNavigatedTo), []);
  return (
    <>
      <PageHeading focusOnMount>{t('forms:title')}</PageHeading>
      {denied ? <Alert type="warning" title={t('forms:list.noAccess')} /> : null}
      {error && !denied ? <Alert type="error" title={t('forms:list.loadError')} /> : null}
      {!data && !error ? <Spinner label={t('common:loading')} /> : null}
      {data ? (
        <>
          <div className={styles.bar}>
            <Button appearance="primary" onClick={() => {
              track(ANALYTICS_ACTIONS.formsCtaClicked);
              void navigate(FORM_WEB_LINKS.edit('new'));
            }}>
              {t('forms:list.new')}
            </Button>
            <Button onClick={() => void navigate(FORM_TEMPLATES_LINK)}>{t('formAdmin:templates.open')}</Button>
          </div>
          {data.items.length === 0 ? (
            <Body1 as="p">{t('forms:list.empty')}</Body1>
          ) : (
            <Table aria-label={t('forms:title')}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('forms:list.name')}</TableHeaderCell>
                  <TableHeaderCell>{t('forms:list.url')}</TableHeaderCell>
                  <TableHeaderCell>{t('forms:list.status')}</TableHeaderCell>
                  <TableHeaderCell>{t('forms:edit.publicLink')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {data.items.map((form) => (
                  <TableRow key={form.formUuid}>
                    <TableCell>
                      <RouterLink to={FORM_WEB_LINKS.edit(form.formUuid)}>{form.name}</RouterLink>
                    </TableCell>
                    <TableCell>{form.url}</TableCell>
                    <TableCell>{form.active ? t('forms:list.active') : t('forms:list.inactive')}</TableCell>
                    <TableCell>
                      <Link href={form.link} target="_blank" rel="noopener noreferrer" aria-label={`${t('forms:list.open')}: ${form.name}`}>
                        {t('forms:list.open')}
                      </Link>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </>
      ) : null}
    </>
  );
}
