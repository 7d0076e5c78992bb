import { Hero } from '@/features/landing/components/hero';
import { MarketSection } from '@/features/market/components/market-section';

export default function LandingRoute() {
  return (
    <>
      <Hero />
      <MarketSection />
    </>
  );
}
