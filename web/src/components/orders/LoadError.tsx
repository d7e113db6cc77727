import { Alert, Button } from '@chakra-ui/react';
import { loadErrorText } from './orderText';

interface LoadErrorProps {
  title: string;
  error: unknown;
  onRetry: () => void;
}

/** A query that failed: what happened, and a way to ask again. */
export function LoadError({ title, error, onRetry }: LoadErrorProps) {
  return (
    <Alert.Root status="error" borderRadius="md" alignItems="center">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title}</Alert.Title>
        <Alert.Description>{loadErrorText(error)}</Alert.Description>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={onRetry} flexShrink={0}>
        Try again
      </Button>
    </Alert.Root>
  );
}
