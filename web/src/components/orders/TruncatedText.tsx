import { Text, type TextProps } from '@chakra-ui/react';
import { useLayoutEffect, useState } from 'react';
import { Tooltip } from '../ui/tooltip';

interface TruncatedTextProps extends Omit<TextProps, 'children' | 'truncate'> {
  /** The whole text: shown cut with an ellipsis when it does not fit, and then in full in a tooltip. */
  text: string;
}

/**
 * One line of text (a Printify id, a name) cut to its box, and only when it is cut: a tooltip
 * with the whole text on hover, and the text focusable so a keyboard reaches the tooltip too
 * (issue 18). A text that fits is plain, out of the Tab order.
 */
export function TruncatedText({ text, ...textProps }: TruncatedTextProps) {
  // A state, not a ref: turning the tooltip on mounts the text anew, and the new element is measured.
  const [element, setElement] = useState<HTMLParagraphElement | null>(null);
  const [cut, setCut] = useState(false);
  useLayoutEffect(() => {
    if (!element) return;
    const measure = () => setCut(element.scrollWidth > element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, text]);
  return (
    <Tooltip content={text} disabled={!cut}>
      <Text
        ref={setElement}
        truncate
        tabIndex={cut ? 0 : undefined}
        data-truncated={cut ? '' : undefined}
        {...textProps}
      >
        {text}
      </Text>
    </Tooltip>
  );
}
