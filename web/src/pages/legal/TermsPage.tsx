import { LegalDocument } from './components/LegalDocument';
import { TERMS_INTRO, TERMS_SECTIONS } from './termsContent';

export function TermsPage() {
  return <LegalDocument title="Terms of Service" intro={TERMS_INTRO} sections={TERMS_SECTIONS} />;
}
