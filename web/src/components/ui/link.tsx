import { Link as ChakraLink, type LinkProps as ChakraLinkProps } from '@chakra-ui/react';
import { forwardRef } from 'react';
import { Link as RouterLink, type LinkProps as RouterLinkProps } from 'react-router-dom';

export type AppLinkProps = Omit<ChakraLinkProps, 'href' | 'asChild'> &
  Pick<RouterLinkProps, 'to' | 'replace' | 'state'>;

/** A Chakra-styled link that navigates with React Router. */
export const AppLink = forwardRef<HTMLAnchorElement, AppLinkProps>(function AppLink(
  { to, replace, state, children, ...rest },
  ref,
) {
  return (
    <ChakraLink asChild {...rest}>
      <RouterLink ref={ref} to={to} replace={replace} state={state}>
        {children}
      </RouterLink>
    </ChakraLink>
  );
});
