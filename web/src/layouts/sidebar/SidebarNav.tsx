import { Box, Flex, Icon, Text } from '@chakra-ui/react';
import { NavLink } from 'react-router-dom';
import { Tooltip } from '../../components/ui/tooltip';
import type { SidebarEntry } from '../../routes';

interface SidebarNavProps {
  entries: SidebarEntry[];
  collapsed?: boolean;
  onNavigate?: () => void;
}

/** The sidebar's links; NavLink marks the current route with aria-current="page". */
export function SidebarNav({ entries, collapsed = false, onNavigate }: SidebarNavProps) {
  return (
    <Box as="ul" listStyleType="none" display="flex" flexDirection="column" gap="1">
      {entries.map((entry) => (
        <li key={entry.path}>
          <Tooltip content={entry.label} positioning={{ placement: 'right' }} disabled={!collapsed}>
            <Flex
              asChild
              align="center"
              gap="3"
              px="3"
              h="10"
              borderRadius="md"
              color="fg.muted"
              fontWeight="medium"
              fontSize="sm"
              justifyContent={collapsed ? 'center' : 'flex-start'}
              transition="background 0.15s, color 0.15s"
              _hover={{ bg: 'bg.muted', color: 'fg' }}
              _currentPage={{ bg: 'brand.subtle', color: 'brand.fg', _hover: { bg: 'brand.muted' } }}
              focusVisibleRing="inside"
            >
              <NavLink
                to={entry.path}
                end={entry.path === '/'}
                onClick={onNavigate}
                aria-label={collapsed ? entry.label : undefined}
              >
                <Icon as={entry.icon} boxSize="5" flexShrink={0} aria-hidden="true" />
                {!collapsed && <Text as="span" truncate>{entry.label}</Text>}
              </NavLink>
            </Flex>
          </Tooltip>
        </li>
      ))}
    </Box>
  );
}
