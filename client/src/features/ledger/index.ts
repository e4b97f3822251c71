/* The ledger's screens as other features use them (docs/architecture.md, Layers): the statement and the admin's balances. */
export { BalanceText, Statement, type StatementRow } from './Statement.js';
export { Balances, useBalances } from './Balances.js';
export { useLedgerChanges } from './useLedgerChanges.js';
// ACCOUNT's component (docs/architecture.md, Club account and GiroCode): the code for the balance owed, drawn on the device.
export { GiroCode } from './GiroCode.js';
