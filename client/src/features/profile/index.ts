/* What other features may use of the profile (docs/architecture.md, Layers): the data export's button. */
export { DataExportButton } from './DataExportButton.js';
