// SPDX-License-Identifier: GPL-2.0
/*
 * report's option values (sort keys, -F fields, --time, id and name
 * lists, -g) and the sample filters, in perf's spelling where perf has
 * the option, so the same command line asks both tools the same thing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "report_hist.h"

#define ERR(...) snprintf(err, errlen, __VA_ARGS__)

static const char *const key_names[RH_NR_KEYS] = {
	[RH_SYM] = "sym", [RH_DSO] = "dso", [RH_COMM] = "comm",
	[RH_PID] = "pid", [RH_TID] = "tid", [RH_CPU] = "cpu",
	[RH_SRCLINE] = "srcline", [RH_IP] = "ip",
};

static const char *const metric_names[RH_F_KEY] = {
	[RH_F_OVERHEAD] = "overhead", [RH_F_CHILDREN] = "children",
	[RH_F_SAMPLE] = "sample", [RH_F_PERIOD] = "period",
};

const char *rh_key_name(enum rh_key k)
{
	return k < RH_NR_KEYS ? key_names[k] : "?";
}

static int key_of(const char *s, size_t len)
{
	unsigned int k;

	for (k = 0; k < RH_NR_KEYS; k++)
		if (strlen(key_names[k]) == len && !strncmp(s, key_names[k], len))
			return (int)k;
	return -1;
}

/* Calls @fn on each comma-separated item of @s; stops at its error. */
static int each_item(const char *s, int (*fn)(const char *it, size_t len,
					       void *arg), void *arg)
{
	const char *p = s, *comma;
	int ret;

	do {
		comma = strchr(p, ',');
		ret = fn(p, comma ? (size_t)(comma - p) : strlen(p), arg);
		if (ret)
			return ret;
		p = comma + 1;
	} while (comma);
	return 0;
}

struct keys_arg {
	enum rh_key *keys;
	unsigned int *n;
	char *err;
	size_t errlen;
};

static int add_key(const char *it, size_t len, void *arg)
{
	struct keys_arg *a = arg;
	char *err = a->err;
	size_t errlen = a->errlen, i;
	int k = key_of(it, len);

	if (k < 0) {
		ERR("unknown sort key `%.*s': use sym, dso, comm, pid, tid, "
		    "cpu, srcline or ip (comma-separated)", (int)len, it);
		return -EINVAL;
	}
	for (i = 0; i < *a->n; i++)
		if (a->keys[i] == (enum rh_key)k)
			return 0;
	a->keys[(*a->n)++] = (enum rh_key)k;
	return 0;
}

int rh_parse_sort(const char *s, enum rh_key *keys, unsigned int *n,
		  char *err, size_t errlen)
{
	struct keys_arg a = { keys, n, err, errlen };

	*n = 0;
	return each_item(s, add_key, &a);
}

struct fields_arg {
	unsigned int *fields, *n;
	struct keys_arg keys;
};

static int add_field(const char *it, size_t len, void *arg)
{
	struct fields_arg *a = arg;
	char *err = a->keys.err;
	size_t errlen = a->keys.errlen;
	unsigned int f;
	int k;

	for (f = 0; f < RH_F_KEY; f++)
		if (strlen(metric_names[f]) == len &&
		    !strncmp(it, metric_names[f], len))
			break;
	if (f == RH_F_KEY) {
		k = key_of(it, len);
		if (k < 0) {
			ERR("unknown field `%.*s': use overhead, children, "
			    "sample, period or a sort key (sym, dso, comm, "
			    "pid, tid, cpu, srcline, ip)", (int)len, it);
			return -EINVAL;
		}
		f = RH_F_KEY + (unsigned int)k;
		add_key(it, len, &a->keys);
	}
	if (*a->n < RH_MAX_FIELDS)
		a->fields[(*a->n)++] = f;
	return 0;
}

int rh_parse_fields(const char *s, unsigned int *fields, unsigned int *n,
		    enum rh_key *keys, unsigned int *nkeys, char *err,
		    size_t errlen)
{
	struct fields_arg a = { fields, n, { keys, nkeys, err, errlen } };

	*n = 0;
	*nkeys = 0;
	return each_item(s, add_field, &a);
}

/* Seconds with up to 9 decimals into ns, exactly; -1 when malformed. */
static int seconds_ns(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000;
	size_t i = 0;

	if (!len)
		return -1;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (sec > UINT64_MAX / 10 / 1000000000)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
			if (scale > 1) {
				scale /= 10;
				frac += (uint64_t)(s[i] - '0') * scale;
			}
		}
	}
	if (i != len || (len == 1 && s[0] == '.'))
		return -1;
	*ns = sec * 1000000000 + frac;
	return 0;
}

int rh_parse_time(const char *s, uint64_t *start, uint64_t *end, char *err,
		  size_t errlen)
{
	const char *comma = strchr(s, ',');
	size_t l1;

	*start = *end = 0;
	if (!comma || strchr(comma + 1, ',')) {
		ERR("bad --time `%s': give START,END in seconds of the "
		    "capture's clock (as perf script shows times), either "
		    "side may be empty", s);
		return -EINVAL;
	}
	l1 = (size_t)(comma - s);
	if ((l1 && seconds_ns(s, l1, start)) ||
	    (comma[1] && seconds_ns(comma + 1, strlen(comma + 1), end))) {
		ERR("bad --time `%s': START and END are seconds such as "
		    "12345.678901", s);
		return -EINVAL;
	}
	if (*end && *start > *end) {
		ERR("bad --time `%s': START is after END", s);
		return -EINVAL;
	}
	return 0;
}

struct names_arg {
	char ***v;
	size_t *n;
};

static int add_name(const char *it, size_t len, void *arg)
{
	struct names_arg *a = arg;
	char **v;

	if (!len)
		return 0;
	v = realloc(*a->v, (*a->n + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	*a->v = v;
	v[*a->n] = strndup(it, len);
	if (!v[*a->n])
		return -ENOMEM;
	(*a->n)++;
	return 0;
}

int rh_parse_names(const char *s, char ***v, size_t *n)
{
	struct names_arg a = { v, n };

	return each_item(s, add_name, &a);
}

int rh_parse_ids(const char *s, uint32_t **v, size_t *n, char *err,
		 size_t errlen)
{
	char **names = NULL, *end;
	size_t nr = 0, i;
	uint32_t *ids;
	int ret = rh_parse_names(s, &names, &nr);

	for (i = 0; !ret && i < nr; i++) {
		unsigned long long x;

		errno = 0;
		x = strtoull(names[i], &end, 10);
		if (errno || *end || end == names[i] || x > UINT32_MAX) {
			ERR("bad id `%s': give decimal process or thread ids, "
			    "comma-separated", names[i]);
			ret = -EINVAL;
			break;
		}
		ids = realloc(*v, (*n + 1) * sizeof(*ids));
		if (!ids) {
			ret = -ENOMEM;
			break;
		}
		*v = ids;
		ids[(*n)++] = (uint32_t)x;
	}
	if (ret == -ENOMEM)
		ERR("out of memory");
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return ret;
}

int rh_parse_callgraph(const char *s, bool *on, enum rh_order *order,
		       bool *order_set, double *limit, char *err,
		       size_t errlen)
{
	char **items = NULL, *end;
	size_t n = 0, i;
	int ret = rh_parse_names(s, &items, &n);

	*on = true;
	for (i = 0; !ret && i < n; i++) {
		const char *it = items[i];

		if (!strcmp(it, "none")) {
			*on = false;
		} else if (!strcmp(it, "caller") || !strcmp(it, "callee")) {
			*order = strcmp(it, "callee") ? RH_CALLER : RH_CALLEE;
			*order_set = true;
		} else if (!strcmp(it, "graph") || !strcmp(it, "fractal") ||
			   !strcmp(it, "flat") || !strcmp(it, "function")) {
			/* One layout: percentages of the event's total. */
		} else if (it[0] >= '0' && it[0] <= '9') {
			*limit = strtod(it, &end);
			if (*end || *limit < 0 || *limit > 100) {
				ERR("bad -g limit `%s': a percentage, 0 to 100",
				    it);
				ret = -EINVAL;
			}
		} else {
			ERR("bad -g `%s': give caller or callee, a percent "
			    "limit (caller,0.5), or none", it);
			ret = -EINVAL;
		}
	}
	for (i = 0; i < n; i++)
		free(items[i]);
	free(items);
	if (ret == -ENOMEM)
		ERR("out of memory");
	return ret;
}

void rh_filter_free(struct rh_filter *f)
{
	size_t i;

	for (i = 0; i < f->nr_comms; i++)
		free(f->comms[i]);
	for (i = 0; i < f->nr_dsos; i++)
		free(f->dsos[i]);
	for (i = 0; i < f->nr_syms; i++)
		free(f->syms[i]);
	free(f->comms);
	free(f->dsos);
	free(f->syms);
	free(f->pids);
	free(f->tids);
	memset(f, 0, sizeof(*f));
}

static bool has_name(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static bool has_id(const uint32_t *v, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

/* An object given by path or by name matches the name frames carry. */
static bool has_dso(char *const *v, size_t n, const char *dso)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *slash = strrchr(v[i], '/');

		if (!strcmp(slash ? slash + 1 : v[i], dso))
			return true;
	}
	return false;
}

bool rh_filter_match(const struct rh_filter *f, const struct rh_sample *s)
{
	if (f->has_time && (s->time < f->start || (f->end && s->time > f->end)))
		return false;
	if (f->has_cpus && (s->cpu >= RH_MAX_CPUS ||
			    !skd_cpu_isset(f->cpus, s->cpu)))
		return false;
	return true;
}

/* As perf: --dso and --sym look at where the sample landed, its leaf. */
bool rh_filter_shown(const struct rh_filter *f, const struct rh_sample *s)
{
	if (f->nr_pids && !has_id(f->pids, f->nr_pids, s->pid))
		return false;
	if (f->nr_tids && !has_id(f->tids, f->nr_tids, s->tid))
		return false;
	if (f->nr_comms && !has_name(f->comms, f->nr_comms, s->comm))
		return false;
	if (f->nr_dsos && !has_dso(f->dsos, f->nr_dsos, s->f[0].dso))
		return false;
	if (f->nr_syms && (!s->f[0].sym ||
			   !has_name(f->syms, f->nr_syms, s->f[0].sym)))
		return false;
	return true;
}
