import { Field, Input, Textarea, type InputProps } from '@chakra-ui/react';
import { forwardRef, useId } from 'react';

interface FormFieldProps extends Omit<InputProps, 'size'> {
  label: string;
  /** An inline error under the field (marks it invalid). */
  error?: string;
  /** Marks the field invalid when the message about it is elsewhere (see `describedBy`). */
  invalid?: boolean;
  /** Id of a message outside the field that describes it, e.g. a form-level alert. */
  describedBy?: string;
  helperText?: string;
  multiline?: boolean;
  rows?: number;
}

/** Label + input (or textarea) + hint or inline error, wired with Chakra's Field for a11y. */
export const FormField = forwardRef<HTMLInputElement & HTMLTextAreaElement, FormFieldProps>(function FormField(
  { label, error, invalid, describedBy, helperText, required, multiline, rows = 5, ...inputProps },
  ref,
) {
  const helperTextId = useId();
  const showHelper = Boolean(helperText) && !error;
  // Field describes the input by its own texts; a message elsewhere is added in front of them.
  const describedByIds = describedBy ? [describedBy, ...(showHelper ? [helperTextId] : [])].join(' ') : undefined;
  const control = { ...inputProps, ...(describedByIds ? { 'aria-describedby': describedByIds } : {}) };
  return (
    <Field.Root invalid={Boolean(error) || Boolean(invalid)} required={required} ids={{ helperText: helperTextId }}>
      <Field.Label>
        {label}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      {multiline ? (
        <Textarea ref={ref} rows={rows} bg="bg.panel" {...(control as object)} />
      ) : (
        <Input ref={ref} bg="bg.panel" {...control} />
      )}
      {showHelper && <Field.HelperText>{helperText}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
});
