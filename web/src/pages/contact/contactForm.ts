export interface ContactForm {
  name: string;
  email: string;
  subject: string;
  message: string;
}

export type ContactErrors = Partial<Record<keyof ContactForm, string>>;

export const emptyContactForm: ContactForm = { name: '', email: '', subject: '', message: '' };

/** A new form: empty, or starting with the signed-in user's name and email (still editable). */
export function newContactForm(user: { firstName: string; lastName: string; email: string } | null): ContactForm {
  if (!user) return emptyContactForm;
  const name = [user.firstName, user.lastName]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(' ');
  return { ...emptyContactForm, name, email: user.email };
}

// Pragmatic address check: something@something.tld, no spaces.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateContact(form: ContactForm): ContactErrors {
  const errors: ContactErrors = {};
  if (!form.name.trim()) errors.name = 'Please enter your name';
  if (!form.email.trim()) errors.email = 'Please enter your email address';
  else if (!EMAIL_PATTERN.test(form.email.trim())) errors.email = 'Please enter a valid email address';
  if (!form.subject.trim()) errors.subject = 'Please enter a subject';
  if (!form.message.trim()) errors.message = 'Please enter a message';
  return errors;
}

/** mailto: link addressed to support, carrying the subject and a body with name, email and message. */
export function buildMailtoUrl(supportEmail: string, form: ContactForm): string {
  const body = `Name: ${form.name.trim()}\nEmail: ${form.email.trim()}\n\n${form.message.trim()}`;
  const query = `subject=${encodeURIComponent(form.subject.trim())}&body=${encodeURIComponent(body)}`;
  return `mailto:${supportEmail}?${query}`;
}
