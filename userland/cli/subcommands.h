/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SKD_SUBCOMMANDS_H
#define _SKD_SUBCOMMANDS_H

#define PROG_NAME "skidless"

/* argv[0] is the subcommand's own name. Each returns the exit status. */
int info_main(int argc, char *argv[]);
int record_main(int argc, char *argv[]);
int script_main(int argc, char *argv[]);
int report_main(int argc, char *argv[]);
int annotate_main(int argc, char *argv[]);
int report_branches_main(int argc, char *argv[]);
int report_mem_main(int argc, char *argv[]);
int convert_main(int argc, char *argv[]);
int diff_main(int argc, char *argv[]);
int list_main(int argc, char *argv[]);
int selftest_main(int argc, char *argv[]);
int load_main(int argc, char *argv[]);
int unload_main(int argc, char *argv[]);

#endif /* _SKD_SUBCOMMANDS_H */
