import { Portal, Tooltip as ChakraTooltip } from '@chakra-ui/react';
import type { ReactNode } from 'react';

// Spec constants: open after 700 ms; close (and the skip window before the next one
// opens instantly) after 300 ms.
export const TOOLTIP_OPEN_DELAY = 700;
export const TOOLTIP_CLOSE_DELAY = 300;

export interface TooltipProps extends Omit<ChakraTooltip.RootProps, 'children'> {
  content: ReactNode;
  children: ReactNode;
  disabled?: boolean;
}

export function Tooltip({ content, children, disabled, ...rootProps }: TooltipProps) {
  if (disabled) return <>{children}</>;
  return (
    <ChakraTooltip.Root openDelay={TOOLTIP_OPEN_DELAY} closeDelay={TOOLTIP_CLOSE_DELAY} {...rootProps}>
      <ChakraTooltip.Trigger asChild>{children}</ChakraTooltip.Trigger>
      <Portal>
        <ChakraTooltip.Positioner>
          <ChakraTooltip.Content>
            <ChakraTooltip.Arrow>
              <ChakraTooltip.ArrowTip />
            </ChakraTooltip.Arrow>
            {content}
          </ChakraTooltip.Content>
        </ChakraTooltip.Positioner>
      </Portal>
    </ChakraTooltip.Root>
  );
}
