// What other features may use of comments and mentions (docs/architecture.md, Layers).
export { CommentSection } from './CommentSection.js';
export { EventMentionBadge } from './MentionBadge.js';
export { MentionList } from './MentionList.js';
export { excerpt, formatCommentDate } from './format.js';
