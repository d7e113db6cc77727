import { usePageTitle } from '../../hooks/usePageTitle';
import { ClosingCta } from './components/ClosingCta';
import { FeatureGrid } from './components/FeatureGrid';
import { Hero } from './components/Hero';

export function LandingPage() {
  usePageTitle('');
  return (
    <>
      <Hero />
      <FeatureGrid />
      <ClosingCta />
    </>
  );
}
