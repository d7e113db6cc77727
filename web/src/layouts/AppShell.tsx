import { Box, Flex } from '@chakra-ui/react';
import { useCallback, useLayoutEffect, useState } from 'react';
import { Outlet } from 'react-router-dom';
import type { PublicUser } from '@pod/contracts';
import { writeDisplayCurrency } from '../hooks/useDisplayCurrency';
import type { SidebarEntry } from '../routes';
import { AppPagesContext } from './appPages';
import { MobileNav } from './sidebar/MobileNav';
import { Sidebar } from './sidebar/Sidebar';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink';

const COLLAPSED_KEY = 'sidebar-collapsed';

function readCollapsed(): boolean {
  try {
    return window.localStorage.getItem(COLLAPSED_KEY) === 'true';
  } catch {
    return false;
  }
}

/** The signed-in frame: sidebar (or mobile menu) plus the page in <main>. */
export function AppShell({ user, entries }: { user: PublicUser; entries: SidebarEntry[] }) {
  const [collapsed, setCollapsed] = useState(readCollapsed);
  // The account's currency follows the seller to every browser: on sign-in and on each session
  // load it becomes this browser's choice, before the (lazily loaded) page asks for figures.
  useLayoutEffect(() => writeDisplayCurrency(user.currency), [user.id, user.currency]);
  const toggle = useCallback(() => {
    setCollapsed((value) => {
      try {
        window.localStorage.setItem(COLLAPSED_KEY, String(!value));
      } catch {
        // storage unavailable: keep the state in memory only
      }
      return !value;
    });
  }, []);

  return (
    <Flex minH="100dvh" bg="bg.canvas">
      <SkipLink />
      <Sidebar entries={entries} user={user} collapsed={collapsed} onToggle={toggle} />
      <Flex direction="column" flex="1" minW="0">
        <MobileNav entries={entries} user={user} />
        <Box
          as="main"
          id={MAIN_CONTENT_ID}
          tabIndex={-1}
          flex="1"
          display="flex"
          flexDirection="column"
          _focus={{ outline: 'none' }}
        >
          <AppPagesContext.Provider value={entries}>
            <Outlet />
          </AppPagesContext.Provider>
        </Box>
      </Flex>
    </Flex>
  );
}
