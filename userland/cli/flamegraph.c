// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"
#include "hmap.h"
#include "subcommands.h"

#define IMAGE_WIDTH	1200.0
#define XPAD		10.0
#define FRAME_HEIGHT	16.0
#define FONT_SIZE	12.0
#define TOP		56.0	/* title and subtitle */
#define BOTTOM		24.0
/* Narrower frames are not drawn (their callees neither); counted instead. */
#define MIN_WIDTH	0.1

struct node {
	const struct stack_frame *frame;	/* NULL: the root, "all" */
	uint64_t value;
	struct node **kids;
	size_t nk, cap;
};

static void free_tree(struct node *n)
{
	size_t i;

	for (i = 0; i < n->nk; i++)
		free_tree(n->kids[i]);
	free(n->kids);
	free(n);
}

static struct node *child(struct node *n, const struct stack_frame *f)
{
	struct node *c;
	size_t i;

	/* Stacks come sorted: the match is nearly always the newest child. */
	for (i = n->nk; i--;)
		if (n->kids[i]->frame == f)
			return n->kids[i];
	if (n->nk == n->cap) {
		size_t cap = n->cap ? n->cap * 2 : 4;
		struct node **k = realloc(n->kids, cap * sizeof(*k));

		if (!k)
			return NULL;
		n->kids = k;
		n->cap = cap;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->frame = f;
	n->kids[n->nk++] = c;
	return c;
}

static struct node *build(const struct stacks *s, bool samples)
{
	struct node *root = calloc(1, sizeof(*root)), *n;
	size_t i;
	unsigned int j;

	if (!root)
		return NULL;
	for (i = 0; i < s->n; i++) {
		const struct stack *st = s->v[i];
		uint64_t w = samples ? st->samples : st->period;

		root->value += w;
		for (n = root, j = 0; j < st->n; j++) {
			n = child(n, &s->frames[st->ids[j]]);
			if (!n) {
				free_tree(root);
				return NULL;
			}
			n->value += w;
		}
	}
	return root;
}

/* Levels drawn: frames too narrow to draw do not make the image taller. */
static unsigned int depth(const struct node *n, double scale)
{
	unsigned int d = 0, k;
	size_t i;

	if ((double)n->value * scale < MIN_WIDTH)
		return 0;
	for (i = 0; i < n->nk; i++) {
		k = depth(n->kids[i], scale);
		if (k > d)
			d = k;
	}
	return d + 1;
}

static const char *name_of(const struct node *n)
{
	return n->frame ? n->frame->name : "all";
}

static const struct node *base_child(const struct node *b, const char *name)
{
	size_t i;

	if (!b)
		return NULL;
	for (i = 0; i < b->nk; i++)
		if (!strcmp(name_of(b->kids[i]), name))
			return b->kids[i];
	return NULL;
}

static void xml_text(FILE *out, const char *s, size_t max)
{
	size_t i;

	for (i = 0; i < max && s[i]; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			/* XML 1.0 has no place for other control characters. */
			fputc((unsigned char)s[i] < 0x20 ? '?' : s[i], out);
		}
	}
}

/* FlameGraph's warm palette: kernel orange, user by object, comm grey. */
static void colour(const struct node *n, char *rgb, size_t len)
{
	uint64_t h;

	if (!n->frame || n->frame->comm) {
		snprintf(rgb, len, "rgb(%d,%d,%d)", 200, 200, 205);
		return;
	}
	h = skd_hash_str(SKD_HASH_INIT, n->frame->dso);
	if (n->frame->kernel)
		snprintf(rgb, len, "rgb(%d,%d,%d)", 230, 140 + (int)(h % 40),
			 40 + (int)(h / 40 % 30));
	else
		snprintf(rgb, len, "rgb(%d,%d,%d)", 205 + (int)(h % 50),
			 60 + (int)(h / 50 % 120), 50 + (int)(h / 6000 % 30));
}

/* Red for a share that grew, blue for one that shrank, white for none. */
static void diff_colour(double delta, double max, char *rgb, size_t len)
{
	int k = max > 0 ? (int)(200.0 * (delta < 0 ? -delta : delta) / max) : 0;

	if (delta > 0)
		snprintf(rgb, len, "rgb(255,%d,%d)", 255 - k, 255 - k);
	else
		snprintf(rgb, len, "rgb(%d,%d,255)", 255 - k, 255 - k);
}

struct render {
	FILE *out;
	const struct flame_opts *o;
	double scale;		/* pixels per unit of weight */
	double total, base_total;
	double max_delta;	/* largest change of share, for colours */
	unsigned int height;
	uint64_t omitted;
};

static double share_delta(const struct render *r, const struct node *n,
			  const struct node *b)
{
	return (double)n->value / r->total -
	       (b && r->base_total ? (double)b->value / r->base_total : 0);
}

static void max_delta(struct render *r, const struct node *n,
		      const struct node *b)
{
	double d = share_delta(r, n, b);
	size_t i;

	if (d < 0)
		d = -d;
	if (d > r->max_delta)
		r->max_delta = d;
	for (i = 0; i < n->nk; i++)
		max_delta(r, n->kids[i], base_child(b, name_of(n->kids[i])));
}

static void draw(struct render *r, const struct node *n, const struct node *b,
		 double x, unsigned int level)
{
	double w = (double)n->value * r->scale;
	double y = r->height - BOTTOM - (level + 1) * FRAME_HEIGHT;
	const char *name = name_of(n);
	size_t i, fit;
	char rgb[48];

	if (w < MIN_WIDTH) {
		r->omitted++;
		return;
	}
	fputs("<g><title>", r->out);
	xml_text(r->out, name, SIZE_MAX);
	fprintf(r->out, " (%" PRIu64 " %s, %.2f%%", n->value,
		r->o->samples ? "samples" : "period", 100.0 * n->value / r->total);
	if (r->o->base) {
		double d = share_delta(r, n, b);

		fprintf(r->out, "; base %.2f%%, %+.2f points",
			100.0 * ((double)n->value / r->total - d), 100.0 * d);
		diff_colour(d, r->max_delta, rgb, sizeof(rgb));
	} else {
		colour(n, rgb, sizeof(rgb));
	}
	fprintf(r->out, ")</title><rect x=\"%.4f\" y=\"%.1f\" width=\"%.4f\" "
		"height=\"%.1f\" fill=\"%s\" rx=\"2\" ry=\"2\"/>", x, y, w,
		FRAME_HEIGHT - 1, rgb);
	/* As many characters as fit at about 0.59 em each, ".." if cut. */
	fit = (size_t)((w - 6) / (FONT_SIZE * 0.59));
	if (fit >= 3) {
		fprintf(r->out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3,
			y + FRAME_HEIGHT - 5);
		if (strlen(name) > fit) {
			xml_text(r->out, name, fit - 2);
			fputs("..", r->out);
		} else {
			xml_text(r->out, name, SIZE_MAX);
		}
		fputs("</text>", r->out);
	}
	fputs("</g>\n", r->out);
	for (i = 0; i < n->nk; i++) {
		draw(r, n->kids[i], base_child(b, name_of(n->kids[i])), x,
		     level + 1);
		x += (double)n->kids[i]->value * r->scale;
	}
}

int flamegraph_write(const struct stacks *s, const struct flame_opts *o,
		     FILE *out)
{
	struct node *root = build(s, o->samples), *base = NULL;
	struct render r = { .out = out, .o = o };

	if (!root || (o->base && !(base = build(o->base, o->samples)))) {
		if (root)
			free_tree(root);
		fprintf(stderr, "%s: out of memory\n", PROG_NAME);
		return -ENOMEM;
	}
	r.total = (double)root->value;
	r.base_total = base ? (double)base->value : 0;
	r.scale = root->value ? (IMAGE_WIDTH - 2 * XPAD) / root->value : 0;
	r.height = (unsigned int)(TOP + BOTTOM + depth(root, r.scale) *
				  FRAME_HEIGHT);
	if (base)
		max_delta(&r, root, base);

	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%u\" "
		"viewBox=\"0 0 %.0f %u\" xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style>text { font-family: Verdana, sans-serif; "
		"font-size: %.0fpx; fill: #000; } g:hover rect { stroke: #000; "
		"stroke-width: 0.5; }</style>\n"
		"<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" "
		"fill=\"#f8f8f0\"/>\n<text x=\"%.0f\" y=\"24\" "
		"text-anchor=\"middle\" style=\"font-size: 17px\">",
		IMAGE_WIDTH, r.height, IMAGE_WIDTH, r.height, FONT_SIZE,
		IMAGE_WIDTH / 2);
	xml_text(out, o->title ? o->title : "Flame Graph", SIZE_MAX);
	fprintf(out, "</text>\n<text x=\"%.0f\" y=\"44\" text-anchor=\"middle\">"
		"event ", IMAGE_WIDTH / 2);
	xml_text(out, s->event ? s->event : "", SIZE_MAX);
	fprintf(out, ", %" PRIu64 " samples, period %" PRIu64 "%s</text>\n",
		s->total_samples, s->total_period,
		base ? "; red: share grew against the base, blue: shrank" : "");
	draw(&r, root, base, XPAD, 0);
	if (r.omitted)
		fprintf(out, "<!-- %" PRIu64 " frames narrower than %.1f px "
			"not drawn -->\n", r.omitted, MIN_WIDTH);
	fputs("</svg>\n", out);
	free_tree(root);
	if (base)
		free_tree(base);
	return ferror(out) ? -EIO : 0;
}
