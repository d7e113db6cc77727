import { LegalDocument } from './components/LegalDocument';
import { PRIVACY_INTRO, PRIVACY_SECTIONS } from './privacyContent';

export function PrivacyPage() {
  return <LegalDocument title="Privacy Policy" intro={PRIVACY_INTRO} sections={PRIVACY_SECTIONS} />;
}
