// What other features may use of the events list (docs/architecture.md, Layers).
export { EventTimeFields, type EventTimePart } from './EventTimeFields.js';
export { orderEvents } from './order.js';
export { AnswerDeadline } from './AnswerDeadline.js';
export { useClubNow } from './useClubNow.js';
