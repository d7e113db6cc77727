import { Field, Input, Textarea, type InputProps } from '@chakra-ui/react';
import { forwardRef } from 'react';

interface FormFieldProps extends Omit<InputProps, 'size'> {
  label: string;
  error?: string;
  helperText?: string;
  multiline?: boolean;
  rows?: number;
}

/** Label + input (or textarea) + inline error, wired with Chakra's Field for a11y. */
export const FormField = forwardRef<HTMLInputElement & HTMLTextAreaElement, FormFieldProps>(function FormField(
  { label, error, helperText, required, multiline, rows = 5, ...inputProps },
  ref,
) {
  return (
    <Field.Root invalid={Boolean(error)} required={required}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {multiline ? (
        <Textarea ref={ref} rows={rows} bg="bg.panel" {...(inputProps as object)} />
      ) : (
        <Input ref={ref} bg="bg.panel" {...inputProps} />
      )}
      {helperText && !error && <Field.HelperText>{helperText}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
});
