/** Prints the table -> module map (scripts/lib/table-ownership.ts) as markdown, for docs/ARCHITECTURE.md. */
import { renderTableMap } from './lib/table-ownership.ts';

console.log(renderTableMap());
