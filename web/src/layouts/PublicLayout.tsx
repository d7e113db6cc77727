import { Box, Container, Flex, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { createContext, useContext } from 'react';
import { Link as RouterLink, Outlet } from 'react-router-dom';
import { Logo } from '../components/brand/Logo';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink';
import { ButtonLink } from '../components/ui/button-link';

export const TAGLINE = 'Know your real profit on every Etsy order.';

// True under the public layout, whose footer already links Privacy, Terms and Contact: pages
// that end with those links themselves (the legal pages) leave them out there.
const SiteFooterContext = createContext(false);

/** Whether the page is shown above the public site footer (its links are on screen already). */
export function useHasSiteFooter(): boolean {
  return useContext(SiteFooterContext);
}

function PublicHeader() {
  return (
    <Box
      as="header"
      bg="bg.panel"
      borderBottomWidth="1px"
      borderColor="border"
      position="sticky"
      top="0"
      zIndex="sticky"
    >
      <Container maxW="6xl" py="3">
        <Flex align="center" justify="space-between" gap="4">
          <Stack gap="0.5" minW="0">
            <RouterLink to="/" aria-label="PodProfit home">
              <Logo />
            </RouterLink>
            <Text fontSize="xs" color="fg.muted" lineClamp={2}>
              {TAGLINE}
            </Text>
          </Stack>
          <ButtonLink to="/login" colorPalette="brand" variant="outline" size="sm" flexShrink={0}>
            Sign In
          </ButtonLink>
        </Flex>
      </Container>
    </Box>
  );
}

export function FooterLinks() {
  return (
    <HStack as="ul" listStyleType="none" gap={{ base: '4', md: '6' }} flexWrap="wrap" fontSize="sm">
      <li>
        <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
          <RouterLink to="/privacy">Privacy Policy</RouterLink>
        </Link>
      </li>
      <li>
        <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
          <RouterLink to="/terms">Terms of Service</RouterLink>
        </Link>
      </li>
      <li>
        <Link asChild color="fg.muted" _hover={{ color: 'fg' }}>
          <RouterLink to="/contact">Contact</RouterLink>
        </Link>
      </li>
    </HStack>
  );
}

function PublicFooter() {
  const year = new Date().getFullYear();
  return (
    <Box as="footer" bg="bg.panel" borderTopWidth="1px" borderColor="border">
      <Container maxW="6xl" py="8">
        <Flex direction={{ base: 'column', md: 'row' }} gap="4" justify="space-between" align={{ md: 'center' }}>
          <Stack gap="1">
            <Logo />
            <Text fontSize="sm" color="fg.muted">
              © {year} PodProfit. All rights reserved.
            </Text>
          </Stack>
          <nav aria-label="Footer">
            <FooterLinks />
          </nav>
        </Flex>
      </Container>
    </Box>
  );
}

export function PublicLayout() {
  return (
    <Flex direction="column" minH="100dvh">
      <SkipLink />
      <PublicHeader />
      <Box
        as="main"
        id={MAIN_CONTENT_ID}
        tabIndex={-1}
        flex="1"
        display="flex"
        flexDirection="column"
        _focus={{ outline: 'none' }}
      >
        <SiteFooterContext.Provider value={true}>
          <Outlet />
        </SiteFooterContext.Provider>
      </Box>
      <PublicFooter />
    </Flex>
  );
}
