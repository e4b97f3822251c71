/** `npm run bench`: the measurements live in scripts/bench/ (index.ts orchestrates them). */
import './bench/index.js';
