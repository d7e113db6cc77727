import { Box, Button, CloseButton, Drawer, Flex, Portal, Separator } from '@chakra-ui/react';
import { useState } from 'react';
import { LuMenu } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import type { PublicUser } from '@pod/contracts';
import { Logo } from '../../components/brand/Logo';
import type { SidebarEntry } from '../../routes';
import { DemoBadge } from './DemoBadge';
import { SidebarNav } from './SidebarNav';
import { UserPanel } from './UserPanel';

interface MobileNavProps {
  entries: SidebarEntry[];
  user: PublicUser | null;
}

/** Below md: a top bar with a Menu button opening the sidebar as a slide-over drawer. */
export function MobileNav({ entries, user }: MobileNavProps) {
  const [open, setOpen] = useState(false);
  return (
    <Box
      as="header"
      hideFrom="md"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg.panel"
      borderBottomWidth="1px"
      borderColor="border"
    >
      <Flex align="center" justify="space-between" px="4" h="14">
        <Flex align="center" gap="2" minW="0">
          <RouterLink to="/" aria-label="PodProfit home">
            <Logo />
          </RouterLink>
          {user?.isDemo && <DemoBadge />}
        </Flex>
        <Drawer.Root open={open} onOpenChange={(details) => setOpen(details.open)} placement="start" size="xs">
          <Drawer.Trigger asChild>
            <Button variant="outline" size="sm">
              <LuMenu /> Menu
            </Button>
          </Drawer.Trigger>
          <Portal>
            <Drawer.Backdrop />
            <Drawer.Positioner>
              <Drawer.Content>
                <Drawer.Header borderBottomWidth="1px" borderColor="border" py="3">
                  <Drawer.Title asChild>
                    <Flex align="center" gap="2">
                      <Logo />
                      {user?.isDemo && <DemoBadge />}
                    </Flex>
                  </Drawer.Title>
                </Drawer.Header>
                <Drawer.Body py="4">
                  <nav aria-label="Main">
                    <SidebarNav entries={entries} onNavigate={() => setOpen(false)} />
                  </nav>
                </Drawer.Body>
                <Drawer.Footer display="block" py="4">
                  <Separator mb="4" />
                  <UserPanel user={user} />
                </Drawer.Footer>
                <Drawer.CloseTrigger asChild>
                  <CloseButton size="sm" aria-label="Close menu" />
                </Drawer.CloseTrigger>
              </Drawer.Content>
            </Drawer.Positioner>
          </Portal>
        </Drawer.Root>
      </Flex>
    </Box>
  );
}
