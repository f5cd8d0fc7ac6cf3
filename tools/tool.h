/*
 * tool.h - the subcommands of the `raidx` command-line tool.  Each takes the
 * arguments after its own name (argv[0] is the subcommand name) and returns
 * the process exit status.
 */
#ifndef RAIDX_TOOL_H
#define RAIDX_TOOL_H

#include <stdio.h>

int raidx_tool_info(int argc, char **argv);     /* tools/raidx.c */
int raidx_tool_selftest(int argc, char **argv); /* tools/selftest.c */
int raidx_tool_bench(int argc, char **argv);    /* tools/bench.c */
int raidx_tool_tune(int argc, char **argv);     /* tools/tune.c */

/* `text` to f after `first` spaces, its words wrapped before column
 * `width` onto lines indented by `indent`, and a newline (tools/raidx.c). */
void raidx_tool_wrap(FILE *f, const char *text, int first, int indent, int width);

#endif
