// SPDX-License-Identifier: GPL-2.0
#include <libiberty/demangle.h>
#include <string.h>

#include "demangle.h"

char *skd_demangle(const char *name)
{
	if (!name)
		return NULL;
	/* Itanium C++ and Rust legacy start _Z, Rust v0 _R; dot suffixes ok. */
	if (strncmp(name, "_Z", 2) && strncmp(name, "_R", 2))
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}
