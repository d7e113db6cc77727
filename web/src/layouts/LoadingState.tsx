import { Center, Spinner, Text, VisuallyHidden } from '@chakra-ui/react';
import { MAIN_CONTENT_ID } from './SkipLink';

export const LOADING_LABEL = 'Loading…';

/**
 * What shows while the app cannot yet know what a path shows (the session is being checked,
 * or a page's code is on its way): neither the public header nor the shell, so a signed-in
 * reload never flashes the landing page or the not-found card. `fullScreen` stands in for a
 * whole layout (it is the page's <main>); otherwise it fills the layout's own <main>.
 */
export function LoadingState({ fullScreen = false, message }: { fullScreen?: boolean; message?: string }) {
  return (
    <Center
      as={fullScreen ? 'main' : 'div'}
      id={fullScreen ? MAIN_CONTENT_ID : undefined}
      flex="1"
      minH={fullScreen ? '100dvh' : '40vh'}
      bg={fullScreen ? 'bg.canvas' : undefined}
      aria-busy="true"
      data-testid="loading-state"
    >
      <Spinner color="brand.solid" size="lg" aria-hidden="true" />
      {message ? (
        <Text role="status" color="fg.muted" ms="3">
          {message}
        </Text>
      ) : (
        <VisuallyHidden role="status">{LOADING_LABEL}</VisuallyHidden>
      )}
    </Center>
  );
}
