import { Button } from '@fluentui/react-components';
import { FolderArrowUpRegular } from '@fluentui/react-icons';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { placedFromPicker, type PlacedFile } from './folder-drop';

/**
 * "Upload folder": a button and the hidden folder picker behind it, handing the picked files over
 * with their paths relative to the picked folder (folder-drop.ts) — the plain and the E2E room
 * pages use the same one.
 */
export function UploadFolderButton({ disabled, testId, onPlaced }: { disabled: boolean; testId: string; onPlaced: (placed: PlacedFile[]) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement | null>(null);
  return (
    <>
      <Button icon={<FolderArrowUpRegular />} disabled={disabled} onClick={() => input.current?.click()}>
        {t('rooms:drop.uploadFolder')}
      </Button>
      <input
        ref={(element) => {
          input.current = element;
          // Not in React's typings: the picker then chooses a folder and gives each file its relative path.
          element?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        hidden
        data-testid={testId}
        aria-label={t('rooms:drop.uploadFolder')}
        onChange={(event) => {
          onPlaced(placedFromPicker([...(event.target.files ?? [])]));
          event.target.value = '';
        }}
      />
    </>
  );
}
