/** A feature outside placement that borrows another's command, and shares the record store. */
import '../booking/book.js';
import '../records/store.js';
export type Publish = string;
