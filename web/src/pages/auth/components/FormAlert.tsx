import { Alert, Box } from '@chakra-ui/react';

interface FormAlertProps {
  /** Referenced by the fields the message is about (aria-describedby). */
  id: string;
  message: string | null;
}

/**
 * The form-level error. The live region (role="alert") stays in the page and only its text
 * changes, so screen readers announce each new message.
 */
export function FormAlert({ id, message }: FormAlertProps) {
  return (
    <Box id={id} role="alert" aria-atomic="true">
      {message && (
        <Alert.Root status="error" borderRadius="md" data-testid="form-alert" mb="4">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Description>{message}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
    </Box>
  );
}
