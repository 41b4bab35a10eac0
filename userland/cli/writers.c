// SPDX-License-Identifier: GPL-2.0
/* The formats `skidless convert` knows: one line per writer, in --help order. */
#include "writers.h"

const struct writer writers[] = {
	{ NULL, NULL, false, NULL },
};
