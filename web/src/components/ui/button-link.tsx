import { Button, type ButtonProps } from '@chakra-ui/react';
import { forwardRef } from 'react';
import { Link as RouterLink, type LinkProps as RouterLinkProps } from 'react-router-dom';

export type ButtonLinkProps = Omit<ButtonProps, 'asChild' | 'type'> & Pick<RouterLinkProps, 'to' | 'replace' | 'state'>;

/** A router link styled as a Chakra button (an <a>, without Button's type="button"). */
export const ButtonLink = forwardRef<HTMLAnchorElement, ButtonLinkProps>(function ButtonLink(
  { to, replace, state, children, ...buttonProps },
  ref,
) {
  return (
    <Button asChild type={undefined} {...buttonProps}>
      <RouterLink ref={ref} to={to} replace={replace} state={state}>
        {children}
      </RouterLink>
    </Button>
  );
});
