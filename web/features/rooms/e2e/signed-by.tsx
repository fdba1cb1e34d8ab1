import { useTranslation } from 'react-i18next';
import { PersonName } from '../person-name';
import { signedByOf, type E2eListedFile } from './e2e-room-client';

/**
 * The "Signed by" cell of an E2E file or version (shared/crypto/README.md section 7 "The signer of
 * a file"): the member whose pinned key verified the metadata — with the uploader when someone else
 * re-signed it (a rename) — or, when it did not verify, the reason. Never the metadata's uploader
 * field on its own word. When the uploader signed, her display name as the server answers it
 * (issue 32) stands above the signed address (PersonName); the address stays visible.
 */
export function SignedBy({ file }: { file: Pick<E2eListedFile, 'metadata' | 'signer' | 'problem' | 'uploadedByName'> }) {
  const { t } = useTranslation();
  const shown = signedByOf(file);
  if (!shown) return <>{t(`rooms:e2e.problems.${file.problem ?? 'room-metadata-invalid'}`, { defaultValue: t('rooms:e2e.problems.unknown') })}</>;
  if (shown.uploader === undefined) return <PersonName name={file.uploadedByName} email={shown.signer} />;
  return <>{t('rooms:e2e.signedByOther', { signer: shown.signer, uploader: shown.uploader })}</>;
}
