// The stemming languages the keyword index knows, by name only: the settings tab lists them without
// loading the stemmers (src/search/analyzer.ts), which live in server.js. A test keeps the two in step.
export const LANGUAGE_NAMES: readonly string[] = [
  'arabic', 'armenian', 'bulgarian', 'danish', 'dutch', 'english', 'finnish', 'french', 'german', 'greek',
  'hungarian', 'indonesian', 'irish', 'italian', 'lithuanian', 'nepali', 'norwegian', 'portuguese',
  'romanian', 'russian', 'spanish', 'swedish', 'tamil', 'turkish', 'ukrainian',
];
