import { Button, Tooltip } from '@fluentui/react-components';
import { TOOLTIP } from '@shared/theme/constants';
import type { ReactElement } from 'react';

/** An icon button whose name is also shown as a tooltip, with the SPEC §9 open delay. */
export function TooltipButton({ label, icon, onClick, disabled }: { label: string; icon: ReactElement; onClick: () => void; disabled?: boolean }) {
  return (
    <Tooltip content={label} relationship="label" showDelay={TOOLTIP.openDelayMs} hideDelay={TOOLTIP.skipDelayMs}>
      <Button icon={icon} onClick={onClick} disabled={disabled} />
    </Tooltip>
  );
}
