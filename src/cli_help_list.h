/* cli_help_list.h: the help of every option, as each command's --help
 * shows it (src/cli_options.c reads it; cli_help_options() prints it):
 *
 *   HELP(ID, COMMANDS, METAVAR, TEXT)
 *
 * ID is the option's line of src/cli_option_list.h, whose letter, name
 * and argument (--NAME=METAVAR, or --NAME[=METAVAR] for an optional
 * one) head the entry; COMMANDS are the --help pages that show it
 * (trace, tui and model share one, the main help); TEXT is its lines,
 * each set under the column of the text.  One "@LIST" in a line is
 * filled from a registry: @scorers, @windows, @formats or @stages.  An
 * option whose help differs between commands (--format, --precision)
 * has an entry for each.  Each page lists its entries in this order.
 * TEXT is written out whole in each entry, never through a macro: the
 * catalogue's msgid is what xgettext reads between the parentheses.
 * No include guard: read once, by cli_options.c. */
#define C_MAIN (C(trace) | C(tui) | C(model)) /* the main help */
HELP(scorer, C_MAIN, "LIST",
     "a scorer, several separated by commas, or all\n"
     "(default dot)\n"
     "scorers: @scorers")
HELP(quiz_stage, C(quiz), "STAGE",
     "ask only about scoring, softmax or weighted-sum,\n"
     "or hard-draw (which word --hard draws: l from u\n"
     "and the cumulative sums);\n"
     "give it again to add a stage (default: all three,\n"
     "in turn); of a glimpse model (--model=glimpse6):\n"
     "place, draw, retina, glimpse, core, class or\n"
     "reinforce (default: all seven)")
HELP(seed, C(quiz), "N",
     "pick the questions with seed N (default: from the\n"
     "clock; the seed is printed, so a quiz can be\n"
     "repeated)")
HELP(count, C(quiz), "N",
     "ask N questions, 1 to 100 (default 3)")
HELP(answers, C(quiz), "",
     "print the questions with their answers and the\n"
     "worked arithmetic, and read nothing (for teachers)")
HELP(worksheet, C(quiz), "",
     "print the questions as a worksheet to hand out,\n"
     "with a blank for each answer, and read nothing")
HELP(key, C(quiz), "",
     "print the worksheet's key: each answer with its\n"
     "worked arithmetic (the same options and --seed\n"
     "give the worksheet's questions)")
HELP(quiz_format, C(quiz), "FORMAT",
     "of --worksheet and --key: text (the default),\n"
     "markdown or html (one page, nothing external)")
HELP(scorer, C(quiz), "NAME",
     "the scorer of the questions (default dot)\n"
     "scorers: @scorers")
HELP(output, C(heatmap) | C(diagram), "FILE",
     "write the picture to FILE (default: standard\n"
     "output); FILE is replaced whole, or not at all;\n"
     "FILE.png: a PNG image instead of SVG")
HELP(png_size, C(heatmap) | C(diagram), "WxH",
     "the box that -o FILE.png is scaled to fit,\n"
     "keeping the picture's shape: WxH pixels, or W\n"
     "alone for W wide (default 1920x1080, a slide)")
HELP(output, C(deck), "FILE",
     "write the deck to FILE (default: standard\n"
     "output); FILE is replaced whole, or not at all")
HELP(scorer, C(heatmap), "LIST",
     "a scorer, several separated by commas side by\n"
     "side, or all (default dot)\n"
     "scorers: @scorers")
HELP(step, C(diagram), "T",
     "the decoder step to draw, from 1 (default 1)")
HELP(all_steps, C(diagram), "",
     "one picture a step, DIR/step-T.svg, into the\n"
     "directory given by -o DIR (made if missing)")
HELP(scorer, C(diagram) | C(deck), "NAME",
     "the scorer (default dot)\n"
     "scorers: @scorers")
HELP(window, C_MAIN | C(quiz) | C(heatmap) | C(diagram) | C(deck), "NAME",
     "which source words a step weighs (default global):\n"
     "@windows; local-p needs [local-p.*]")
HELP(window_size, C_MAIN | C(quiz) | C(heatmap) | C(diagram) | C(deck),
     "D",
     "a local window's half-width D, 0 or more (default\n"
     "1; local-p: 1 or more)")
HELP(input_feeding, C_MAIN | C(quiz) | C(heatmap), "",
     "Luong's input feeding: the decoder reads\n"
     "[y_{t-1}; h̃_{t-1}]; the model must have it (its\n"
     "file says so); without --model, the built-in feed4\n"
     "(with --arch=all, luong's side; bahdanau's has none)")
HELP(arch, C_MAIN, "NAME",
     "the architecture, luong or bahdanau: the model must\n"
     "be of it (its file says which); without --model,\n"
     "the built-in model of it (toy4, bahdanau4); all:\n"
     "each in turn (trace), or both, a to switch (tui)")
HELP(model, C_MAIN | C(quiz) | C(heatmap) | C(vocab), "FILE",
     "read the model from FILE instead of the built-in\n"
     "trained toy model (toy4); handset4 names the\n"
     "built-in hand-set model of the lessons")
HELP(target, C_MAIN | C(heatmap) | C(diagram) | C(deck), "SENTENCE",
     "teacher-force the decoder with this translation\n"
     "instead of decoding greedily")
HELP(format, C_MAIN, "FORMAT",
     "@formats (default text)")
HELP(precision, C_MAIN, "N",
     "digits after the point in text, 0 to 17 (default 4)")
HELP(hard, C_MAIN, "RULE",
     "hard attention: the context of a step is one source\n"
     "word's state, drawn from the weights (sample, the\n"
     "default) or their argmax (argmax)")
HELP(arch, C(quiz), "NAME",
     "luong or bahdanau: the model must be of it;\n"
     "without --model, its built-in model; all: each\n"
     "architecture on its built-in model, in turn")
HELP(target, C(quiz), "SENTENCE",
     "teacher-force the decoder with this translation")
HELP(hard, C(quiz), "RULE",
     "hard attention: the context is one source word's\n"
     "state, sampled from the weights with --seed's\n"
     "generator (sample, the default) or their argmax")
HELP(precision, C(quiz), "N",
     "digits after the point, 2 to 8 (default 4)")
HELP(arch, C(heatmap), "NAME",
     "luong or bahdanau: the model must be of it;\n"
     "without --model, its built-in model; all: each\n"
     "architecture on its built-in model, side by side")
HELP(precision, C(heatmap), "N",
     "digits after the point in the cells, 0 to 17\n"
     "(default 4)")
HELP(hard, C(heatmap), "RULE",
     "hard attention: each step's context is one source\n"
     "word's state, sampled from the weights (sample,\n"
     "the default) or their argmax (argmax)")
HELP(seed, C_MAIN | C(heatmap), "N",
     "seed of --hard's draws (default 0)")
HELP(set, C(trace) | C(tui) | C(quiz) | C(heatmap) | C(diagram) |
     C(deck), "NAME=VALUE",
     "what-if: set a weight or embedding before tracing,\n"
     "by its model section and indices from 1, e.g.\n"
     "general.W[2][3]=0.5 or source[je][2]=-1, or one\n"
     "step's value: step[T].state[K], step[T].scores[I],\n"
     "step[T].weights[I] (not renormalised) or\n"
     "step[T].context[K], e.g. step[2].scores[1]=3\n"
     "(repeatable)")
HELP(goal, C(tui), "step[T].weights=WORD",
     "a goal for the stepper's edits (e): make WORD\n"
     "the largest weight at step T; the stepper says\n"
     "whether the edits in force reach it")
HELP(explain, C(trace), "NAME",
     "why this number: the formula of a step's value\n"
     "(NAME as --set names it, e.g. step[1].weights[2])\n"
     "with its operands, and theirs, back to the\n"
     "embeddings and the weights, instead of the trace")
HELP(gradient, C_MAIN, "",
     "with --hard and --target: REINFORCE's learning\n"
     "signal at each step (R, R̄, R - R̄, the score-function,\n"
     "entropy and backpropagated terms)")
HELP(samples, C_MAIN, "N",
     "with --hard and --target: a Monte Carlo estimate of\n"
     "the score gradient from N draws, beside the exact one")
HELP(gradient_paths, C(trace), "T",
     "with --target (trace): how strongly the loss\n"
     "L_T of step T (default the last) reaches each h_i,\n"
     "directly through step T's attention and through\n"
     "the recurrence")
HELP(top, C_MAIN, "N",
     "output probabilities listed at each step\n"
     "(default 3)")
HELP(handout, C_MAIN, "",
     "with --format=markdown: a handout, each vector kept\n"
     "on one line and only the --top=N outputs listed")
HELP(batch, C_MAIN, "FILE",
     "trace each line 'source ||| target' of FILE\n"
     "(- for stdin); bad lines are reported as FILE:LINE")
HELP(strict, C_MAIN, "",
     "stop a batch at its first bad line")
HELP(quiet, C_MAIN, "",
     "no progress line on a terminal's standard error\n"
     "while a batch runs")
HELP(jobs, C_MAIN, "N",
     "trace a batch with N threads (default: one a\n"
     "processor, at most 16); the output is the same\n"
     "whatever N")
HELP(show, C(heatmap), "WHAT",
     "weights (α, or local-p's a; the default) or drawn:\n"
     "with --hard, a 1 in each step's drawn word and 0\n"
     "elsewhere")
HELP(gradient_paths, C(heatmap), "T",
     "with --target: instead of the weights, how\n"
     "strongly the loss of step T (default the last)\n"
     "reaches each source word, directly through step\n"
     "T's attention and through the recurrence; with\n"
     "several --model, each set by the --scorer and\n"
     "--window before it, all in one picture")
HELP(self, C(heatmap), "",
     "the weights A of each head of self-attention\n"
     "(attn-trace self; --target: cross-attention),\n"
     "a panel a head, on the built-in model self4")
HELP(causal, C(heatmap), "",
     "with --self: mask every later word")
HELP(no_position, C(heatmap), "",
     "with --self: no positional encoding")
HELP(heads, C(heatmap), "LIST",
     "with --self: the heads drawn, 1, 2 or 1,2")
HELP(model, C(diagram) | C(deck), "FILE",
     "read the model from FILE instead of the built-in\n"
     "trained toy model (toy4)")
HELP(arch, C(diagram) | C(deck), "NAME",
     "luong or bahdanau: the model must be of it;\n"
     "without --model, its built-in model")
HELP(input_feeding, C(diagram) | C(deck), "",
     "Luong's input feeding: the decoder reads\n"
     "[y_{t-1}; h̃_{t-1}]; the model must have it (its\n"
     "file says so); without --model, the built-in feed4")
HELP(hard, C(diagram), "RULE",
     "hard attention: sample (the default) draws one\n"
     "word from the weights, argmax takes the largest;\n"
     "the picture marks it, and its state is c_t")
HELP(hard, C(deck), "RULE",
     "hard attention: sample (the default) or argmax")
HELP(seed, C(diagram) | C(deck), "N",
     "the seed of --hard's draws (default 0)")
HELP(diagram_format, C(diagram), "FORMAT",
     "svg (the default), text: the picture the\n"
     "stepper's d key shows, in box drawing, or png\n"
     "(with --all-steps: DIR/step-T.png; -o FILE.png\n"
     "alone writes PNG too)")
HELP(ascii, C(diagram), "",
     "with --format=text: ASCII instead of box drawing\n"
     "(the default where the locale is not UTF-8)")
HELP(width, C(diagram), "N",
     "with --format=text: lay it out for N columns,\n"
     "40 to 400 (default 80)")
HELP(precision, C(diagram) | C(deck), "N",
     "digits after the point, 1 to 6 (default 4)")
HELP(pairs, C(train), "FILE",
     "the training pairs (required; - is stdin)")
HELP(output, C(train), "FILE",
     "the model file to write (required; - is stdout)")
HELP(scorer, C(train), "LIST",
     "all, or scorers separated by commas: one model\n"
     "whose shared weights serve them all, trained on\n"
     "the sum of their losses (default all)\n"
     "scorers: @scorers")
HELP(epochs, C(train), "N",
     "full passes over the pairs, one update each\n"
     "(default 3000)")
HELP(lr, C(train), "X",
     "learning rate (default 0.01)")
HELP(weight_decay, C(train), "X",
     "shrink every weight by lr*X at each update, as\n"
     "AdamW does (default 0.2; 0: none)")
HELP(optimizer, C(train), "NAME",
     "adam or sgd (default adam)")
HELP(clip, C(train), "X",
     "clip the gradient to global norm X; 0: never\n"
     "(default 5)")
HELP(seed, C(train), "N",
     "seed of the random initial weights (default 1)")
HELP(embedding, C(train), "N",
     "embedding size E, 1 to 64 (default 4)")
HELP(hidden, C(train), "N",
     "hidden size H, 1 to 64 (default 4)")
HELP(arch, C(train), "NAME",
     "luong (the default) or bahdanau (H even); with\n"
     "--init, the model's own, which --arch must name;\n"
     "all: a model of each architecture, with the same\n"
     "settings, written to DIR/luong.model, ... where\n"
     "-o DIR names a directory (if one training fails,\n"
     "none is written)")
HELP(attention, C(train), "N",
     "concat scorer width A, 1 to 64 (default 4)")
HELP(positions, C(train), "N",
     "source positions L of the location scorer, 1 to\n"
     "64 (default: the longest source side)")
HELP(init, C(train), "FILE",
     "start from the weights of the model FILE (its\n"
     "sizes and vocabularies) instead of random ones;\n"
     "a name 'attn-trace models' lists is a built-in\n"
     "one; its self/cross-attention weights are kept")
HELP(freeze_shared, C(train), "",
     "with --init: update only the weights that the\n"
     "scorers trained own, and keep every other weight\n"
     "as the --init model has it")
HELP(align_weight, C(train), "X",
     "add X times -log(the attention on the gold source\n"
     "words) to the loss, for pairs with a gold\n"
     "alignment (guided alignment; default 0: none)")
HELP(input_feeding, C(train), "",
     "Luong's input feeding: the decoder reads\n"
     "[y_{t-1}; h̃_{t-1}] (the model file then says so);\n"
     "with --init, the model's own; with --arch=all,\n"
     "Luong's model only (Bahdanau's reads c_t anyway)")
HELP(window, C(train), "NAME",
     "train the weights through a window: global (the\n"
     "default), local-m or local-p (any scorer, both\n"
     "architectures, with input feeding too; local-p\n"
     "adds [local-p.W_p] and [local-p.v_p] to the model)")
HELP(window_size, C(train), "D",
     "the local window's half-width D (default 1)")
HELP(hard, C(train), "sample",
     "hard attention: each step draws one source word\n"
     "from α (SplitMix64 from --seed) and learns the\n"
     "scores by REINFORCE (doc/model.md); either\n"
     "architecture, every scorer, --input-feeding\n"
     "and either local window (local-p draws from its\n"
     "weights normalised, a / Σa, and W_p, v_p learn)")
HELP(heldout, C(train), "FILE",
     "after training, report the alignment accuracy on\n"
     "the pairs of FILE too, pairs not trained on")
HELP(jobs, C(train), "N",
     "share each epoch's pairs among N threads, in\n"
     "chunks of 64 (default: one a processor, at\n"
     "most 16); the model is the same whatever N;\n"
     "--hard trains on one")
HELP(every, C(train), "N",
     "without a terminal, print progress every N\n"
     "epochs (default 100)")
HELP(train_quiet, C(train), "",
     "print no progress")
HELP(plain, C(lesson), "",
     "print the whole lesson as text instead of stepping\n"
     "through it (the default when stdout is not a\n"
     "terminal)")
HELP(no_answers, C(lesson), "",
     "with --plain: leave out the quizzes' answers (by\n"
     "default they are collected at the end)")
HELP(present, C(lesson), "",
     "step through it in presentation mode, for a\n"
     "projector: large titles, high contrast")
HELP(width, C(lesson), "N",
     "wrap the text at N columns, 20 to 1000 (default 76)")
HELP(precision, C(lesson), "N",
     "digits after the point, 0 to 17 (default 4)")
HELP(color, C(lesson), "WHEN",
     "auto, always or never (default auto)")
HELP(lang, C(lesson), "LANG",
     "en or zh_CN: the lessons in that language\n"
     "(default: the locale's, English if untranslated)")
HELP(lang, C_MAIN | C(quiz), "LANG",
     "en or zh_CN: the messages in that language\n"
     "(default: the locale's)")
HELP(check, C(lesson), "",
     "check each FILE: its format, its words, its\n"
     "steps, and that each number of its narrative is\n"
     "one the page shows; print \"FILE: ok\" for each\n"
     "good one")
HELP(model, C(self), "FILE",
     "read the model from FILE; it needs the sections\n"
     "[self.*] (and [cross.*] for --target); the\n"
     "default, self4, is the built-in hand-set model\n"
     "of self-attention")
HELP(target, C(self), "SENTENCE",
     "cross-attention: queries from these target words,\n"
     "keys and values from the source words")
HELP(causal, C(self), "",
     "mask every score e_i,j with j > i (-inf): a word\n"
     "sees no later word")
HELP(no_position, C(self), "",
     "add no positional encoding to the embeddings")
HELP(heads, C(self), "LIST",
     "the heads whose stages to show: 1, 2, or 1,2\n"
     "(default: both, all that the model has); the\n"
     "concat and W_O always use both")
HELP(self_format, C(self), "FORMAT",
     "text, json, jsonl, csv, markdown, svg (the\n"
     "weights A of each head as a heatmap picture),\n"
     "or diagram-svg (a line from each query to each\n"
     "key, as thick as its weight); default text, or\n"
     "the stepper on a terminal")
HELP(row, C(self), "I",
     "the query row whose weights the stepper and\n"
     "diagram-svg show, from 1 (default 1)")
HELP(color, C(self), "WHEN",
     "colours in the stepper: auto, always or never")
HELP(precision, C(self), "N",
     "digits after the point in text and Markdown, 0\n"
     "to 17 (default 4)")
HELP(output, C_MAIN | C(self), "FILE",
     "write to FILE, atomically, instead of stdout")
HELP(png_size, C(self), "WxH",
     "with --format=svg or diagram-svg:\n"
     "the box that -o FILE.png is scaled to fit,\n"
     "keeping the picture's shape: WxH pixels, or W\n"
     "alone for W wide (default 1920x1080, a slide)")
HELP(stage, C_MAIN, "LIST",
     "print only these stages: @stages\n"
     "(comma-separated; scoring includes decoder)")
HELP(color, C_MAIN, "WHEN",
     "colours in the stepper: auto, always or never\n"
     "(default auto; NO_COLOR turns auto off)")
HELP(present, C_MAIN, "",
     "the stepper in presentation mode, for a projector")
HELP(autoplay, C_MAIN, "SECS",
     "presentation mode that advances every SECS seconds")
HELP(vocab_source, C(vocab), "",
     "list the source words alone, with no heading")
HELP(vocab_target, C(vocab), "",
     "list the target words alone, with no heading")
HELP(ascii, C(image), "",
     "the blocks in ASCII (. : + #), not UTF-8 shades;\n"
     "the default where the locale is not UTF-8")
HELP(values, C(image), "",
     "the table of the pixels' values after the blocks")
HELP(output, C(image), "FILE",
     "write the image as SVG pixels (with their values\n"
     "in them up to 9x9) into FILE, - for standard\n"
     "output; the file appears whole or not at all;\n"
     "FILE.png: a PNG image instead of SVG")
HELP(png_size, C(image), "WxH",
     "the box that -o FILE.png is scaled to fit,\n"
     "keeping the picture's shape: WxH pixels, or W\n"
     "alone for W wide (default 1920x1080, a slide)")
HELP(model, C(caption), "FILE",
     "the image model: a model file, or caption4, the\n"
     "built-in one (the default)")
HELP(scorer, C(caption), "LIST",
     "a scorer, several separated by commas, or all\n"
     "(default dot)\n"
     "scorers: @scorers")
HELP(target, C(caption), "CAPTION",
     "teacher-force the decoder with this caption\n"
     "instead of decoding greedily")
HELP(caption_format, C(caption), "FORMAT",
     "text, json, weights (each word of the caption\n"
     "beside the image with its weights over the cells),\n"
     "svg (the same as a picture), jsonl, csv or\n"
     "markdown (default text)")
HELP(precision, C(caption), "N",
     "digits after the point in text, 0 to 17 (default 4)")
HELP(captions, C(caption), "FILE",
     "train an image model on the images of FILE (a\n"
     ".captions file, data/images/) instead of\n"
     "captioning one; -o writes it")
HELP(output, C(caption), "FILE",
     "write the trace to FILE, whole or not at all\n"
     "(default: standard output); with --captions, the\n"
     "trained model's file")
HELP(epochs, C(caption), "N",
     "with --captions, the epochs (default 3000)")
HELP(seed, C(caption), "N",
     "with --captions, the seed of the first weights\n"
     "(default 1)")
HELP(heldout, C(caption), "FILE",
     "with --captions, a .captions file of images to\n"
     "measure the trained model on, not to train on")
HELP(pairs, C(accuracy), "FILE",
     "the pairs 'source ||| target' to decode (- for\n"
     "stdin; the format of 'train --pairs')")
HELP(model, C(accuracy), "MODEL",
     "a model to measure, a file or a built-in name;\n"
     "repeat it for several lines (default: the\n"
     "built-in model)")
HELP(accuracy_format, C(accuracy), "FORMAT",
     "@accuracy-formats (default text)")
HELP(output, C(accuracy), "FILE",
     "write to FILE, atomically, instead of stdout")
HELP(png_size, C(accuracy), "WxH",
     "with --format=svg:\n"
     "the box that -o FILE.png is scaled to fit,\n"
     "keeping the picture's shape: WxH pixels, or W\n"
     "alone for W wide (default 1920x1080, a slide)")
HELP(scorer, C(accuracy), "LIST",
     "for the --model options after it: the scorers,\n"
     "separated by commas, or all, a line each (default:\n"
     "each scorer whose weights the model holds, or dot)")
HELP(window, C(accuracy), "NAME",
     "for the --model options after it: which source\n"
     "words a step weighs (default global):\n"
     "@windows")
HELP(window_size, C(accuracy), "D",
     "for the --model options after it: a local\n"
     "window's half-width D (default 1)")
HELP(glimpse_model, C(glimpse), "MODEL",
     "a glimpse model file, or the built-in glimpse6\n"
     "(the default)")
HELP(seed, C(glimpse), "N",
     "seed the draws of the glimpses' places, and with\n"
     "--train the start (default 1)")
HELP(glimpse_mean, C(glimpse), "",
     "look where the policy points, l = l-hat, with no\n"
     "draw (what --measure does)")
HELP(glimpse_class, C(glimpse), "NAME",
     "the image's true class: the trace adds the loss,\n"
     "the reward and REINFORCE's terms")
HELP(glimpse_format, C(glimpse), "FORMAT",
     "text (the default), json (the trace), jsonl (it on\n"
     "one line), csv (one value a row), markdown, model\n"
     "(the model as JSON) or svg (the glimpses on the image)")
HELP(glimpse_precision, C(glimpse), "N",
     "digits after the point in text and markdown\n"
     "(default 4)")
HELP(ascii, C(glimpse), "",
     "the pictures in ASCII, not UTF-8 shades and lines;\n"
     "the default where the locale is not UTF-8")
HELP(output, C(glimpse), "FILE",
     "write to FILE, atomically, instead of stdout (with\n"
     "--train: the model file, needed)")
HELP(glimpse_train, C(glimpse), "CAPTIONS",
     "train a new model on the images of a .captions\n"
     "file (data/images/train.captions) into -o FILE")
HELP(glimpse_epochs, C(glimpse), "N",
     "with --train: the epochs (default 3000)")
HELP(glimpse_measure, C(glimpse), "CAPTIONS",
     "classify every image of a .captions file with the\n"
     "mean policy: the class accuracy, and the share of\n"
     "glimpses whose fovea lands on the object")
HELP(glimpse_batch, C(glimpse), "LIST",
     "trace every image of LIST, one a line: PATH\n"
     "[||| CLASS], relative to LIST's directory")
HELP(glimpse_tui, C(glimpse), "",
     "step through the glimpses on a terminal: the image\n"
     "with each glimpse's box and the path beside its\n"
     "numbers, then the class (keys: ? in the stepper)")
HELP(help, C_ALL, "",
     "display this help and exit")
HELP(version, C_MAIN, "",
     "output version information and exit")
#undef C_MAIN
HELP(calc_query, C(calc), "LIST",
     "the query: 1 to 16 numbers separated by commas")
HELP(calc_keys, C(calc), "ROWS",
     "the keys: rows of numbers separated by ';', each\n"
     "as long as the query (1 to 64 keys)")
HELP(calc_values, C(calc), "ROWS",
     "the values, one a key, each of 1 to 16 numbers\n"
     "(default: the keys)")
HELP(calc_scorer, C(calc), "NAME",
     "the scorer (default dot)\n"
     "scorers: @scorers")
HELP(calc_seed, C(calc), "N",
     "draw the scorer's weights with seed N, when FILE\n"
     "gives none (default 1)")
HELP(calc_format, C(calc), "FORMAT",
     "text (the default), json, jsonl (the JSON on one\n"
     "line), csv or markdown")
HELP(calc_precision, C(calc), "N",
     "digits after the point in text and markdown\n"
     "(default 4)")
HELP(calc_output, C(calc), "FILE",
     "write to FILE (default: standard output); FILE is\n"
     "replaced whole, or not at all")
HELP(glimpse_tui, C(calc), "",
     "step through it on a terminal: the inputs,\n"
     "scoring, softmax and the weighted sum, a screen\n"
     "each (keys: ? in the stepper)")
