import { Link } from '@chakra-ui/react';

export const MAIN_CONTENT_ID = 'main-content';

/** First focusable element on every page: jumps past the header or sidebar. */
export function SkipLink() {
  return (
    <Link
      href={`#${MAIN_CONTENT_ID}`}
      position="absolute"
      top="2"
      insetStart="2"
      zIndex="skipLink"
      px="4"
      py="2"
      bg="bg.panel"
      color="brand.fg"
      fontWeight="semibold"
      borderRadius="md"
      boxShadow="md"
      transform="translateY(-200%)"
      _focusVisible={{ transform: 'translateY(0)' }}
    >
      Skip to content
    </Link>
  );
}
