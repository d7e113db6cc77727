import { Box, Flex, IconButton, Separator } from '@chakra-ui/react';
import { LuPanelLeftClose, LuPanelLeftOpen } from 'react-icons/lu';
import { Link as RouterLink } from 'react-router-dom';
import type { PublicUser } from '@pod/contracts';
import { Logo, LogoMark } from '../../components/brand/Logo';
import { Tooltip } from '../../components/ui/tooltip';
import type { SidebarEntry } from '../../routes';
import { DemoBadge } from './DemoBadge';
import { SidebarNav } from './SidebarNav';
import { UserPanel } from './UserPanel';

export const SIDEBAR_WIDTH = '256px';
export const SIDEBAR_COLLAPSED_WIDTH = '72px';

interface SidebarProps {
  entries: SidebarEntry[];
  user: PublicUser | null;
  collapsed: boolean;
  onToggle: () => void;
}

/** The wide or icon-only sidebar shown from the md breakpoint up. */
export function Sidebar({ entries, user, collapsed, onToggle }: SidebarProps) {
  const toggleLabel = collapsed ? 'Expand sidebar' : 'Collapse sidebar';
  return (
    <Box
      as="nav"
      aria-label="Main"
      id="app-sidebar"
      data-collapsed={collapsed ? 'true' : 'false'}
      hideBelow="md"
      position="sticky"
      top="0"
      h="100dvh"
      w={collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH}
      flexShrink={0}
      bg="bg.sidebar"
      borderEndWidth="1px"
      borderColor="border"
      transition="width 0.2s ease"
      overflow="hidden"
    >
      <Flex direction="column" h="full" px="3" py="4" gap="4">
        <Flex
          direction={collapsed ? 'column' : 'row'}
          align="center"
          justify={collapsed ? 'center' : 'space-between'}
          gap="2"
          minH="10"
          px={collapsed ? '0' : '2'}
        >
          {collapsed ? (
            // Icon-only: the mark alone still says whose app this is and leads home.
            <RouterLink to="/" aria-label="PodProfit home">
              <LogoMark />
            </RouterLink>
          ) : (
            <Flex align="center" gap="2" minW="0">
              <RouterLink to="/" aria-label="PodProfit home">
                <Logo />
              </RouterLink>
              {user?.isDemo && <DemoBadge />}
            </Flex>
          )}
          <Tooltip content={toggleLabel} positioning={{ placement: 'right' }}>
            <IconButton
              aria-label={toggleLabel}
              aria-expanded={!collapsed}
              aria-controls="app-sidebar"
              variant="ghost"
              size="sm"
              color="fg.muted"
              _expanded={{ bg: 'transparent' }}
              _hover={{ bg: 'bg.muted', color: 'fg' }}
              onClick={onToggle}
            >
              {collapsed ? <LuPanelLeftOpen /> : <LuPanelLeftClose />}
            </IconButton>
          </Tooltip>
        </Flex>
        <Box flex="1" overflowY="auto" overflowX="hidden">
          <SidebarNav entries={entries} collapsed={collapsed} />
        </Box>
        <Separator />
        <UserPanel user={user} collapsed={collapsed} />
      </Flex>
    </Box>
  );
}
