import { BuyCrypto } from '@/features/buy/components/buy-crypto';

export default function BuyRoute() {
  return <BuyCrypto />;
}
