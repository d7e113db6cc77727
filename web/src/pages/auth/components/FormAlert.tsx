import { Alert } from '@chakra-ui/react';

/** The form-level error alert (role="alert", announced when it appears). */
export function FormAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert.Root status="error" borderRadius="md" data-testid="form-alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{message}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
