import { Text, type TextProps } from '@chakra-ui/react';
import { Tooltip } from '../ui/tooltip';

export const PROVISIONAL_TEXT = {
  mark: 'provisional',
  why: 'Converted at the latest ECB exchange rate while the rate of the order’s date is not published yet (around 16:00 CET); the figures update then.',
} as const;

/**
 * The small "provisional" under an order's figures (figures `provisional`): a word, not a colour,
 * focusable so its explanation (the tooltip, which the trigger is described by while open)
 * reaches the keyboard too. Order Details says it in full.
 */
export function ProvisionalMark(props: Omit<TextProps, 'children'>) {
  return (
    <Tooltip content={PROVISIONAL_TEXT.why}>
      <Text
        as="span"
        display="block"
        fontSize="xs"
        color="fg.muted"
        fontStyle="italic"
        tabIndex={0}
        data-testid="provisional-mark"
        {...props}
      >
        {PROVISIONAL_TEXT.mark}
      </Text>
    </Tooltip>
  );
}
