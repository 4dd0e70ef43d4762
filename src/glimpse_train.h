/* glimpse_train.h: training the glimpse model (glimpse.h) on a set of
 * images with classes (imageset.h), and measuring it (doc/training.md,
 * "Glimpses").
 *
 * The objective of one image with true class y, its trace run with
 * draws l_t, R = 1 if the predicted class is y, else 0, and the
 * advantages A_t = R - b_t held as constants:
 *
 *   J = -log p_y  -  λ Σ_t A_t log π(l_t | l̂_t)  +  ½ Σ_t (R - b_t)²
 *
 * Its first term trains the classifier, the core and the glimpse network
 * by backpropagation (through h, g and the retina's numbers; the place
 * l_t is a draw, so no gradient goes through it); the second, REINFORCE,
 * the location network W_l, b_l, and through l̂_t's input h_{t-1} the
 * core and the glimpse network too, as in Mnih et al.: ∇ log π is
 * backpropagated through the whole RNN; the third the baseline. */
#ifndef ATTN_GLIMPSE_TRAIN_H
#define ATTN_GLIMPSE_TRAIN_H

#include <stdint.h>

#include "glimpse.h"
#include "imageset.h"

/* REINFORCE's weight λ in J. */
#define GLIMPSE_LAMBDA 1.0

/* J of the trace tr of model m (its truth >= 0), with the advantages
 * adv (T) held. */
double glimpse_objective(const struct glimpse_model *m,
			 const struct glimpse_trace *tr, const double *adv);

/* Adds dJ/dθ of the trace tr (its truth >= 0; the advantages its own
 * tr->adv) into grad, laid out as a model: grad->W_g holds dJ/dW_g, and
 * so on.  The sizes of grad are not read. */
void glimpse_backward(const struct glimpse_model *m,
		      const struct glimpse_trace *tr, struct glimpse_model *grad);

/* How to train. */
struct glimpse_train_opts {
	int hidden, gsize, steps;  /* the new model's H, D, T */
	double sigma;              /* its σ */
	int epochs;                /* full passes over the set */
	double lr;                 /* Adam's step */
	uint64_t seed;             /* the start and the draws */
};

/* The default recipe of the built-in model. */
void glimpse_train_defaults(struct glimpse_train_opts *o);

/* Trains a new model on set into *m: its classes are the set's, in the
 * order of first appearance; Adam (0.9, 0.999, 1e-8), one update an
 * epoch from the mean gradient of every image, one draw of ε a glimpse.
 * Returns 0, or -1 with err set (a set of fewer than 2 or more than
 * GLIMPSE_MAX_CLASSES classes).  *final_loss gets the mean J of the last
 * epoch. */
int glimpse_train(struct glimpse_model *m, const struct imageset *set,
		  const struct glimpse_train_opts *o, double *final_loss,
		  struct errbuf *err);

/* What glimpse_measure() counts over a set. */
struct glimpse_measure {
	int n;           /* the images with a class the model knows */
	int correct;     /* classified right */
	int glimpses;    /* n·T */
	int on_object;   /* glimpses whose fovea overlaps the object box */
};

/* Runs m on every image of set with the mean policy (l = l̂) and counts
 * into *r.  A glimpse is on the object when a pixel of its fovea (the
 * 2×2 around its corner) lies in the item's box. */
void glimpse_measure(const struct glimpse_model *m, const struct imageset *set,
		     struct glimpse_measure *r);

/* Whether step s's fovea overlaps the box of it. */
int glimpse_on_object(const struct glimpse_step *s,
		      const struct imageset_item *it);

#endif
