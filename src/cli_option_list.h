/* cli_option_list.h: every option of every command, one line each
 * (src/cli_options.h reads it):
 *
 *   OPT(ID, NAME, SHORT, ARG, COMMANDS, VALUES)
 *
 * ID names the option's code CLI_OPT_ID (or SHORT, its letter, when it
 * has one: -SHORT is then the option too); NAME is --NAME; ARG is NO,
 * REQ or OPT (an optional =VALUE); COMMANDS are the commands that take it
 * (C(x) | ...); VALUES are what completion offers for its value: V(NONE),
 * V(FILE) or one of the registries of enum cli_values (V(SELECTION): the
 * values of the selection whose option it is), or a fixed list,
 * L("a b"); a registry that a comma-separated list of values may take
 * (cli_values_list) is completed item by item.  One name may have several lines for disjoint commands whose
 * values differ (--format).  The order is that of completion and of
 * "could be" in the error of an ambiguous abbreviation.  No include
 * guard: read more than once. */
#define C_TRACING (C(trace) | C(tui) | C(quiz) | C(heatmap) | C(diagram) | \
		   C(deck))
OPT(scorer, "scorer", 's', REQ,
    C_TRACING | C(train) | C(accuracy) | C(caption), V(SCORERS))
OPT(arch, "arch", 0, REQ, C_TRACING | C(model) | C(train), V(ARCHS))
OPT(window, "window", 0, REQ, C_TRACING | C(train) | C(accuracy), V(WINDOWS))
OPT(window_size, "window-size", 0, REQ, C_TRACING | C(train) | C(accuracy),
    V(NONE))
OPT(input_feeding, "input-feeding", 0, NO, C_TRACING | C(model) | C(train),
    V(NONE))
OPT(model, "model", 'm', REQ,
    C_TRACING | C(model) | C(vocab) | C(self) | C(accuracy) | C(caption),
    V(MODELS))
OPT(target, "target", 't', REQ, C_TRACING | C(self) | C(caption),
    V(TARGET_WORDS))
OPT(vocab_source, "source", 0, NO, C(vocab), V(NONE))
OPT(vocab_target, "target", 0, NO, C(vocab), V(NONE))
OPT(format, "format", 'f', REQ, C(trace) | C(model), V(FORMATS))
OPT(diagram_format, "format", 'f', REQ, C(diagram), V(DIAGRAM_FORMATS))
OPT(self_format, "format", 'f', REQ, C(self), V(SELF_FORMATS))
OPT(quiz_format, "format", 0, REQ, C(quiz), V(QUIZ_FORMATS))
OPT(accuracy_format, "format", 'f', REQ, C(accuracy), V(ACCURACY_FORMATS))
OPT(caption_format, "format", 'f', REQ, C(caption), L("text json weights svg jsonl csv markdown"))
OPT(precision, "precision", 'p', REQ,
    C_TRACING | C(model) | C(lesson) | C(self) | C(caption), V(NONE))
OPT(top, "top", 0, REQ, C(trace), V(NONE))
OPT(handout, "handout", 0, NO, C(trace), V(NONE))
OPT(color, "color", 0, REQ, C(tui) | C(lesson) | C(self), V(COLORS))
OPT(batch, "batch", 0, REQ, C(trace), V(FILE))
OPT(strict, "strict", 0, NO, C(trace), V(NONE))
OPT(quiet, "quiet", 0, NO, C(trace), V(NONE))
OPT(jobs, "jobs", 'j', REQ, C(trace) | C(train), V(NONE))
OPT(output, "output", 'o', REQ,
    C(trace) | C(model) | C(heatmap) | C(diagram) | C(self) | C(train) |
    C(image) | C(deck) | C(accuracy) | C(caption) | C(glimpse), V(FILE))
OPT(png_size, "png-size", 0, REQ,
    C(heatmap) | C(diagram) | C(self) | C(image) | C(accuracy), V(NONE))
OPT(stage, "stage", 0, REQ, C(trace), V(STAGES))
OPT(quiz_stage, "stage", 0, REQ, C(quiz), V(QUIZ_STAGES))
OPT(present, "present", 0, NO, C(tui) | C(lesson), V(NONE))
OPT(autoplay, "autoplay", 0, REQ, C(tui), V(NONE))
OPT(hard, "hard", 0, OPTARG, C_TRACING | C(train), V(SELECTION))
OPT(seed, "seed", 0, REQ, C_TRACING | C(train) | C(caption) | C(glimpse), V(NONE))
OPT(gradient, "gradient", 0, NO, C(trace) | C(tui), V(NONE))
OPT(samples, "samples", 0, REQ, C(trace) | C(tui), V(NONE))
OPT(gradient_paths, "gradient-paths", 0, OPTARG, C(trace) | C(heatmap),
    V(NONE))
OPT(step, "step", 0, REQ, C(diagram), V(NONE))
OPT(all_steps, "all-steps", 0, NO, C(diagram), V(NONE))
OPT(ascii, "ascii", 0, NO, C(diagram) | C(image) | C(glimpse), V(NONE))
OPT(values, "values", 0, NO, C(image), V(NONE))
OPT(width, "width", 0, REQ, C(diagram) | C(lesson), V(NONE))
OPT(show, "show", 0, REQ, C(heatmap), L("weights drawn"))
OPT(self, "self", 0, NO, C(heatmap), V(NONE))
OPT(causal, "causal", 0, NO, C(heatmap) | C(self), V(NONE))
OPT(no_position, "no-position", 0, NO, C(heatmap) | C(self), V(NONE))
OPT(heads, "heads", 0, REQ, C(heatmap) | C(self), V(HEADS))
OPT(row, "row", 0, REQ, C(self), V(NONE))
OPT(plain, "plain", 0, NO, C(lesson), V(NONE))
OPT(no_answers, "no-answers", 0, NO, C(lesson), V(NONE))
OPT(check, "check", 0, NO, C(lesson), V(NONE))
OPT(lang, "lang", 0, REQ, C(lesson) | C(trace) | C(tui) | C(model) |
    C(quiz), L("en zh_CN"))
OPT(count, "count", 0, REQ, C(quiz), V(NONE))
OPT(answers, "answers", 0, NO, C(quiz), V(NONE))
OPT(worksheet, "worksheet", 0, NO, C(quiz), V(NONE))
OPT(key, "key", 0, NO, C(quiz), V(NONE))
OPT(pairs, "pairs", 0, REQ, C(train) | C(accuracy), V(FILE))
OPT(epochs, "epochs", 0, REQ, C(train) | C(caption), V(NONE))
OPT(lr, "lr", 0, REQ, C(train), V(NONE))
OPT(weight_decay, "weight-decay", 0, REQ, C(train), V(NONE))
OPT(optimizer, "optimizer", 0, REQ, C(train), L("sgd adam"))
OPT(clip, "clip", 0, REQ, C(train), V(NONE))
OPT(embedding, "embedding", 0, REQ, C(train), V(NONE))
OPT(hidden, "hidden", 0, REQ, C(train), V(NONE))
OPT(attention, "attention", 0, REQ, C(train), V(NONE))
OPT(init, "init", 0, REQ, C(train), V(MODELS))
OPT(positions, "positions", 0, REQ, C(train), V(NONE))
OPT(align_weight, "align-weight", 0, REQ, C(train), V(NONE))
OPT(freeze_shared, "freeze-shared", 0, NO, C(train), V(NONE))
OPT(heldout, "heldout", 0, REQ, C(train) | C(caption), V(FILE))
OPT(captions, "captions", 0, REQ, C(caption), V(FILE))
OPT(every, "every", 0, REQ, C(train), V(NONE))
OPT(train_quiet, "quiet", 'q', NO, C(train), V(NONE))
OPT(glimpse_model, "model", 'm', REQ, C(glimpse), L("@file glimpse6"))
OPT(glimpse_format, "format", 'f', REQ, C(glimpse), L("text json jsonl csv markdown model svg"))
OPT(glimpse_precision, "precision", 'p', REQ, C(glimpse), V(NONE))
OPT(glimpse_mean, "mean", 0, NO, C(glimpse), V(NONE))
OPT(glimpse_class, "class", 0, REQ, C(glimpse), V(NONE))
OPT(glimpse_train, "train", 0, REQ, C(glimpse), V(FILE))
OPT(glimpse_epochs, "epochs", 0, REQ, C(glimpse), V(NONE))
OPT(glimpse_measure, "measure", 0, REQ, C(glimpse), V(FILE))
OPT(calc_query, "query", 0, REQ, C(calc), V(NONE))
OPT(calc_keys, "keys", 0, REQ, C(calc), V(NONE))
OPT(calc_values, "values", 0, REQ, C(calc), V(NONE))
OPT(calc_scorer, "scorer", 's', REQ, C(calc), V(SCORERS))
OPT(calc_format, "format", 'f', REQ, C(calc), L("text json jsonl csv markdown"))
OPT(calc_precision, "precision", 'p', REQ, C(calc), V(NONE))
OPT(calc_seed, "seed", 0, REQ, C(calc), V(NONE))
OPT(calc_output, "output", 'o', REQ, C(calc), V(FILE))
OPT(glimpse_batch, "batch", 0, REQ, C(glimpse), V(FILE))
OPT(glimpse_tui, "tui", 0, NO, C(glimpse) | C(calc), V(NONE))
OPT(set, "set", 0, REQ, C_TRACING, V(SET_NAMES))
OPT(explain, "explain", 0, REQ, C(trace), V(STEP_VALUES))
OPT(goal, "goal", 0, REQ, C(tui), V(NONE))
OPT(help, "help", 'h', NO, C_ALL, V(NONE))
OPT(version, "version", 'V', NO, C(trace) | C(tui) | C(model), V(NONE))
#undef C_TRACING
