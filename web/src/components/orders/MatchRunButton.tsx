import { Button, Spinner, VisuallyHidden, type ButtonProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { ORDER_MSG } from './orderText';

interface MatchRunButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** The button's name ("Match Orders", "Auto Match Orders"), kept while a run is under way. */
  label: string;
  /** Shown before the label when idle (an icon). */
  icon?: ReactNode;
  running: boolean;
  onStart: () => void;
}

/**
 * Starts a match run; while one is queued or running it reads "Matching..." with a spinner and
 * does nothing. It stays focusable (aria-disabled, not disabled), so a keyboard user who pressed
 * it keeps their place. Its name keeps the label in front of what it shows ("Auto Match Orders:
 * Matching..."): a screen reader hears which button is busy, and the visible text stays part of
 * the name (an aria-label of the bare label hid "Matching..." from it, WCAG 2.5.3).
 */
export function MatchRunButton({ label, icon, running, onStart, ...buttonProps }: MatchRunButtonProps) {
  return (
    <Button
      {...buttonProps}
      aria-disabled={running || undefined}
      aria-busy={running || undefined}
      data-disabled={running ? '' : undefined}
      onClick={running ? undefined : onStart}
    >
      {running ? (
        <>
          <VisuallyHidden>{label}: </VisuallyHidden>
          <Spinner size="sm" aria-hidden="true" />
          {ORDER_MSG.matching}
        </>
      ) : (
        <>
          {icon}
          {label}
        </>
      )}
    </Button>
  );
}
