import { TableHead } from '@/components/ui/table';

/** The headers every table of coin prices starts with: rank, name, price and 24h change. */
export function CoinPriceHeadings() {
  return (
    <>
      <TableHead className="w-16">Rank</TableHead>
      <TableHead>Name</TableHead>
      <TableHead align="right">Price</TableHead>
      <TableHead align="right">24h Change</TableHead>
    </>
  );
}
