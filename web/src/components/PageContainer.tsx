import { Container, type ContainerProps } from '@chakra-ui/react';

/** Standard page width and padding, the same in the public layout and in the shell. */
export function PageContainer(props: ContainerProps) {
  return <Container maxW="6xl" px={{ base: '4', md: '8' }} py={{ base: '8', md: '12' }} {...props} />;
}
