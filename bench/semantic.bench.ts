// npm run bench entry for the semantic benchmark (see semantic.ts).
import './semantic.ts';
