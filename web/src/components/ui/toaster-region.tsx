import {
  Toaster as ChakraToaster,
  Portal,
  Spinner,
  Stack,
  Toast,
  createToaster,
  useMediaQuery,
} from '@chakra-ui/react';
import type { ToastInput } from './toaster';

// Loaded by toaster.tsx with the first toast. Placement is "top" on small screens and
// "bottom-end" from the md breakpoint up; Zag's store fixes its placement at creation, so
// there is one store per placement and `showToast` routes to the active one.
const MD_UP = '(min-width: 48rem)';
const shared = { max: 1, duration: 5000, hotkey: ['F8'], pauseOnPageIdle: true, overlap: false };
// On phones the toast sits just below the sticky top bar, so it never hides the Menu button.
const smallScreenToaster = createToaster({
  ...shared,
  placement: 'top',
  offsets: { top: '5.25rem', left: '1rem', right: '1rem', bottom: '1rem' },
});
const largeScreenToaster = createToaster({ ...shared, placement: 'bottom-end' });

function isLargeScreen(): boolean {
  return typeof window !== 'undefined' && window.matchMedia(MD_UP).matches;
}

/** Closes whatever toast is on screen, in either placement. */
export function dismissToasts() {
  smallScreenToaster.dismiss();
  largeScreenToaster.dismiss();
}

/** Replaces whatever toast is on screen (one at a time). */
export function showToast(toast: ToastInput & { id: string }) {
  dismissToasts();
  (isLargeScreen() ? largeScreenToaster : smallScreenToaster).create(toast);
}

export function ToasterRegion() {
  const [largeScreen] = useMediaQuery([MD_UP], { fallback: [isLargeScreen()] });
  const store = largeScreen ? largeScreenToaster : smallScreenToaster;
  return (
    <Portal>
      <ChakraToaster
        key={largeScreen ? 'lg' : 'sm'}
        toaster={store}
        aria-label="Notification"
        insetInline={{ mdDown: '4' }}
      >
        {(toast) => (
          <Toast.Root width={{ base: 'full', md: '420px' }} maxW={{ md: '420px' }}>
            {toast.type === 'loading' ? <Spinner size="sm" color="brand.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            <Toast.CloseTrigger aria-label="Dismiss notification" />
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
