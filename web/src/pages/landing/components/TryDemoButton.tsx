import { Button, type ButtonProps } from '@chakra-ui/react';
import { useState } from 'react';
import { LuPlay } from 'react-icons/lu';
import { toaster } from '../../../components/ui/toaster';
import { usePublicConfig } from '../../../hooks/api/usePublicConfig';
import { reloadIntoApp, startDemo } from '../../../hooks/api/useDemo';

export const DEMO_LOGIN_FAILED = 'Failed to login with test account';

/**
 * The landing page's test login. With the demo on (no real Etsy credentials), "Try the demo"
 * signs into a fresh demo account and reloads the page into the app; otherwise (or until the
 * server said) it stays the disabled "Developer test login".
 */
export function TryDemoButton(props: Omit<ButtonProps, 'onClick' | 'disabled' | 'loading' | 'loadingText'>) {
  const { config } = usePublicConfig();
  const [pending, setPending] = useState(false);

  if (!config?.demoEnabled) {
    return (
      <Button {...props} disabled title="Coming soon">
        Developer test login
      </Button>
    );
  }

  const start = async () => {
    setPending(true);
    try {
      await startDemo();
    } catch {
      toaster.error(DEMO_LOGIN_FAILED);
      setPending(false);
      return;
    }
    // Stay "Starting demo..." while the page reloads signed in.
    reloadIntoApp();
  };

  return (
    <Button {...props} onClick={() => void start()} loading={pending} loadingText="Starting demo...">
      <LuPlay aria-hidden="true" /> Try the demo
    </Button>
  );
}
