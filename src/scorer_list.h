/* scorer_list.h: the registry of scorers, one line each, in the order
 * that --scorer=all, listings and model files use.  Each SCORER(NAME)
 * needs src/score_NAME.c defining `const struct scorer_class
 * scorer_NAME` (src/scorer.h).  No include guard: scorer.h and scorer.c
 * read this list more than once. */
SCORER(dot)
SCORER(general)
SCORER(concat)
SCORER(scaled)
SCORER(location)
SCORER(additive)
SCORER(location_aware)
