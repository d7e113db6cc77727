import { FormField } from '../../../components/FormField';

interface PasswordFieldProps {
  label: string;
  /** Which password a password manager should offer: the one saved, or a new one. */
  autoComplete: 'current-password' | 'new-password';
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  helperText?: string;
  disabled?: boolean;
}

/** A password input with its label, hint or inline error, as Settings' account forms ask for one. */
export function PasswordField({ onValueChange, ...field }: PasswordFieldProps) {
  return <FormField type="password" {...field} onChange={(event) => onValueChange(event.target.value)} />;
}
