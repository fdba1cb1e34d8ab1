import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, Text } from '@fluentui/react-components';
import { isApiError } from '@shared/api/api-error';
import { LICENCE_KINDS, LICENCE_LIMIT_ERROR, type LicenceLimitMetadata } from '@shared/contract/licence';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  figures: { display: 'grid', gridTemplateColumns: 'max-content auto', columnGap: '16px', rowGap: '4px', margin: '12px 0 0' },
  value: { margin: 0, fontWeight: 600 },
});

/** The figures of a refused room creation (SPEC §8 409 LicenseLimitExceededException), or null for any other failure. */
export function roomLicenceLimitOf(error: unknown): LicenceLimitMetadata | null {
  if (!isApiError(error) || error.status !== 409 || error.error?.error !== LICENCE_LIMIT_ERROR) return null;
  const metadata = (error.error.metadata ?? {}) as Partial<LicenceLimitMetadata>;
  if (!LICENCE_KINDS.includes(metadata.licence as never) || typeof metadata.cap !== 'number' || typeof metadata.used !== 'number') return null;
  return { licence: metadata.licence!, cap: metadata.cap, used: metadata.used, requested: typeof metadata.requested === 'number' ? metadata.requested : 0 };
}

/**
 * SPEC §2 "license-exceeded" / §8 "license overused dialog": the licence the creation relies on is
 * held by more accounts than the operator's cap, so the server refuses new rooms. Shows which
 * licence, its cap and how many hold it; only an administrator can change that.
 */
export function LicenceExceededDialog({ limit, onClose }: { limit: LicenceLimitMetadata | null; onClose: () => void }) {
  const { t } = useTranslation();
  const styles = useStyles();
  return (
    <Dialog open={limit !== null} onOpenChange={(_e, data) => (data.open ? undefined : onClose())} modalType="alert">
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t('rooms:licenceExceeded.title')}</DialogTitle>
          <DialogContent>
            {limit ? (
              <>
                <Text as="p" style={{ margin: 0 }}>
                  {t('rooms:licenceExceeded.text', { licence: t(`rooms:licenceExceeded.kinds.${limit.licence}`) })}
                </Text>
                <dl className={styles.figures}>
                  <dt>{t('rooms:licenceExceeded.licence')}</dt>
                  <dd className={styles.value}>{t(`rooms:licenceExceeded.kinds.${limit.licence}`)}</dd>
                  <dt>{t('rooms:licenceExceeded.allowed')}</dt>
                  <dd className={styles.value} data-testid="licence-cap">
                    {limit.cap}
                  </dd>
                  <dt>{t('rooms:licenceExceeded.used')}</dt>
                  <dd className={styles.value} data-testid="licence-used">
                    {limit.used}
                  </dd>
                </dl>
              </>
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              {t('rooms:licenceExceeded.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
