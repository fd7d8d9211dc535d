/** A shared module that borrows a feature's command. */
import '../booking/book.js';
export type Store = string;
