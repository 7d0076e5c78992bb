import type { CostBasisMethod } from '../api/get-tax-settings';

/** How the account page and the report name each method. */
export const methodNames: Record<CostBasisMethod, string> = {
  fifo: 'First in, first out (FIFO)',
  hifo: 'Highest cost first (HIFO)',
  average: 'Average cost',
};
