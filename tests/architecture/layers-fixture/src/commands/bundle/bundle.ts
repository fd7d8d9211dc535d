/** A feature that borrows another's command, and shares placement's. */
import '../booking/book.js';
import '../placement/shared.js';
export type Bundle = string;
