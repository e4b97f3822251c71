// What other features may use of the ticket contingents (docs/architecture.md, Layers).
export { ContingentSection } from './ContingentSection.js';
export { MyOffers } from './MyOffers.js';
export { beyondContingent, type BeyondContingent } from './beyondContingent.js';
export { useContingent } from './useContingent.js';
