// npm run bench entry for the graph/task benchmark (see graph.ts).
import './graph.ts';
