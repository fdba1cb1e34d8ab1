import { Badge, Body1, Button, Field, Input, makeStyles, Spinner, Table, TableBody, TableCell, TableHeader, TableHeaderCell, TableRow, tokens } from '@fluentui/react-components';
import { ApiError } from '@shared/api/api-error';
import { listHandOffs, retryHandOff } from '@shared/api/endpoints/flows';
import type { HandOff, HandOffState } from '@shared/contract/flows';
import { Alert } from '@web/components/alert';
import { PageHeading } from '@web/components/page-heading';
import { RouterLink } from '@web/components/router-link';
import { apiClient } from '@web/lib/api-client';
import { formatSize } from '@web/lib/format-size';
import { ROUTES } from '@web/lib/routes';
import { useNotify } from '@web/lib/toasts';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '@web/lib/use-debounced-value';
import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import useSWRInfinite from 'swr/infinite';

const PAGE_SIZE = 25;

const useStyles = makeStyles({
  search: { maxWidth: '420px', margin: '12px 0' },
  json: {
    margin: 0,
    padding: '12px',
    maxHeight: '360px',
    overflow: 'auto',
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground1,
  },
  actions: { display: 'flex', gap: '8px', flexWrap: 'wrap' },
  state: { display: 'flex', gap: '4px', flexWrap: 'wrap' },
  encrypted: { display: 'flex', flexDirection: 'column', gap: '4px', alignItems: 'flex-start' },
  more: { marginTop: '12px' },
});

const BADGE: Record<HandOffState, 'success' | 'warning' | 'danger' | 'informative' | 'subtle'> = {
  delivered: 'success',
  pending: 'warning',
  failed: 'danger',
  noWebhook: 'informative',
  waiting: 'subtle',
};

/** `/flows` (ROLE_SECUFLOWS_ACCESS): submissions handed to a process service, their JSON and hand-off state (docs/flows.md). */
export function FlowsPage() {
  const { t, i18n } = useTranslation();
  const styles = useStyles();
  const notify = useNotify();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS, (value) => value === '');
  const [open, setOpen] = useState<string | null>(null);
  const dates = useMemo(() => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }), [i18n.language]);
  const { data, error, size, setSize, mutate, isValidating } = useSWRInfinite(
    (index, previous: { nextCursor: string | null } | null) => (index > 0 && !previous?.nextCursor ? null : ['flows/list', q, index === 0 ? '' : previous!.nextCursor]),
    ([, query, cursor]: [string, string, string]) => listHandOffs(apiClient, { limit: PAGE_SIZE, ...(query ? { q: query } : {}), ...(cursor ? { cursor } : {}) }),
    { revalidateOnFocus: false, shouldRetryOnError: false },
  );
  const denied = error instanceof ApiError && error.status === 403;
  const items = data?.flatMap((page) => page.items) ?? [];
  const hasMore = data?.[data.length - 1]?.nextCursor != null;

  async function retry(handOff: HandOff) {
    try {
      await retryHandOff(apiClient, handOff.handOffId);
      notify('success', t('flows:retried'));
    } catch {
      notify('error', t('flows:retryFailed'));
    }
    await mutate();
  }

  return (
    <>
      <PageHeading focusOnMount>{t('flows:title')}</PageHeading>
      <Body1 as="p">{t('flows:intro')}</Body1>
      {denied ? <Alert type="warning" title={t('flows:noAccess')} /> : null}
      {error && !denied ? <Alert type="error" title={t('flows:loadError')} /> : null}
      {!denied ? (
        <Field className={styles.search} label={t('flows:search')} hint={t('flows:searchHint')}>
          <Input type="search" value={search} onChange={(_e, d) => setSearch(d.value)} />
        </Field>
      ) : null}
      {!data && !error ? <Spinner label={t('common:loading')} /> : null}
      {data && items.length === 0 ? <Body1 as="p">{t('flows:empty')}</Body1> : null}
      {items.length > 0 ? (
        <Table aria-label={t('flows:title')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('flows:columns.form')}</TableHeaderCell>
              <TableHeaderCell>{t('flows:columns.submitted')}</TableHeaderCell>
              <TableHeaderCell>{t('flows:columns.state')}</TableHeaderCell>
              <TableHeaderCell>{t('flows:columns.attempts')}</TableHeaderCell>
              <TableHeaderCell>{t('flows:columns.lastError')}</TableHeaderCell>
              <TableHeaderCell>{t('flows:columns.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((handOff) => {
              const expanded = open === handOff.handOffId;
              const jsonId = `flow-json-${handOff.handOffId}`;
              return (
                <Fragment key={handOff.handOffId}>
                  <TableRow>
                    <TableCell>{handOff.formName}</TableCell>
                    <TableCell>{dates.format(handOff.sentAt ?? handOff.createdAt)}</TableCell>
                    <TableCell>
                      <div className={styles.state}>
                        <Badge appearance="tint" color={BADGE[handOff.state]}>
                          {t(`flows:states.${handOff.state}`)}
                        </Badge>
                        {handOff.encrypted ? (
                          <Badge appearance="tint" color="informative">
                            {t('flows:encrypted')}
                          </Badge>
                        ) : null}
                      </div>
                    </TableCell>
                    <TableCell>
                      {handOff.attempts}
                      {/* After a failed attempt: when the queue tries again (issue 33 §2). */}
                      {handOff.attempts > 0 && handOff.nextAttemptAt !== null ? <div>{t('flows:nextAttempt', { time: dates.format(handOff.nextAttemptAt) })}</div> : null}
                    </TableCell>
                    <TableCell>{handOff.lastError ?? ''}</TableCell>
                    <TableCell>
                      <div className={styles.actions}>
                        <Button size="small" aria-expanded={expanded} aria-controls={expanded ? jsonId : undefined} onClick={() => setOpen(expanded ? null : handOff.handOffId)}>
                          {expanded ? t('flows:hideJson') : t('flows:showJson')}
                        </Button>
                        {handOff.state === 'failed' ? (
                          <Button size="small" appearance="primary" onClick={() => void retry(handOff)}>
                            {t('flows:retry')}
                          </Button>
                        ) : null}
                      </div>
                    </TableCell>
                  </TableRow>
                  {expanded ? (
                    <TableRow>
                      <TableCell colSpan={6}>
                        {handOff.submission ? (
                          <pre id={jsonId} className={styles.json} tabIndex={0} role="region" aria-label={t('flows:jsonOf', { form: handOff.formName })}>
                            {JSON.stringify(handOff.submission, null, 2)}
                          </pre>
                        ) : handOff.encrypted ? (
                          // Levels 3/4: the server cannot read the JSON; it is an encrypted file of the delivery.
                          <div id={jsonId} className={styles.encrypted}>
                            <Body1 as="p">{t('flows:encryptedJson')}</Body1>
                            {handOff.attachment ? <Body1 as="p">{t('flows:encryptedFile', { file: handOff.attachment.name, size: formatSize(handOff.attachment.size, i18n.language) })}</Body1> : null}
                            {handOff.deliveryUuid ? <RouterLink to={`${ROUTES.inbox}/${encodeURIComponent(handOff.deliveryUuid)}`}>{t('flows:openDelivery')}</RouterLink> : null}
                          </div>
                        ) : (
                          <Body1 as="p" id={jsonId}>
                            {t('flows:noJson')}
                          </Body1>
                        )}
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      ) : null}
      {hasMore ? (
        <Button className={styles.more} disabled={isValidating} onClick={() => void setSize(size + 1)}>
          {t('flows:more')}
        </Button>
      ) : null}
    </>
  );
}
