/*
 * raidx.c - the `raidx` command-line tool: subcommand dispatch, `version`,
 * `help` and `info`.
 *
 * `raidx info` shows what the dispatcher sees: the CPU features it detected,
 * the ones RAIDX_DISABLE masks, how the selection was made, and for every
 * operation each compiled-in implementation with its granule, the features
 * it needs, the speed the calibration measured, whether this CPU can run it
 * and which one is in use for in-cache and for larger-than-cache calls.  The
 * rows come straight from the registry (raidx__impl_list), so a kernel file
 * that is compiled in shows up without any change here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raidx_impl.h"
#include "tool.h"

#if defined(__x86_64__) || defined(_M_X64)
#define ARCH_NAME "x86_64"
#elif defined(__aarch64__)
#define ARCH_NAME "aarch64"
#elif defined(__s390x__)
#define ARCH_NAME "s390x"
#else
#define ARCH_NAME "generic"
#endif

/* Space-separated names of the RAIDX_CPU_* bits in `mask`, "-" for none. */
static void feature_names(uint32_t mask, char *buf, size_t n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned b = 0; b < 32; b++) {
		const char *name = raidx_cpu_feature_name(1u << b);
		if (!(mask & (1u << b)) || !name)
			continue;
		int w = snprintf(buf + used, n - used, "%s%s", used ? " " : "", name);
		if (w < 0 || (size_t)w >= n - used)
			break;
		used += (size_t)w;
	}
	if (!used)
		snprintf(buf, n, "-");
}

/*
 * Extra per-implementation column: the speed the start-up calibration
 * measured (data bytes per second over the op's calibration shapes, in
 * cache).  Empty for the implementations it did not time: "ref", the
 * non-temporal kernels (large class), those this CPU cannot run, and all of
 * them when selection came from a tuning file or RAIDX_SELECT=static.
 */
#define INFO_EXTRA_TITLE "calib GB/s"

static int info_extra(const struct raidx__select_report *rep, enum raidx_op op,
		      const struct raidx__impl *impl, char *buf, size_t n)
{
	unsigned nc = rep->op[op].ncand;
	const unsigned max = sizeof(rep->op[op].cand) / sizeof(rep->op[op].cand[0]);

	for (unsigned c = 0; c < nc && c < max; c++) {
		if (rep->op[op].cand[c] == impl && rep->op[op].gbps[c] > 0) {
			snprintf(buf, n, "%.1f", rep->op[op].gbps[c]);
			return 1;
		}
	}
	return 0;
}

static void format_bytes(size_t v, char *buf, size_t n)
{
	if (v >= ((size_t)1 << 20) && !(v & (((size_t)1 << 20) - 1)))
		snprintf(buf, n, "%zu MiB", v >> 20);
	else if (v >= 1024 && !(v & 1023))
		snprintf(buf, n, "%zu KiB", v >> 10);
	else
		snprintf(buf, n, "%zu bytes", v);
}

#define MAX_ROWS (RAIDX_OP_COUNT * 64)

struct info_row {
	const char *op, *impl;
	unsigned granule;
	char requires[96];
	char extra[32];
	char state[128];
};

static size_t max_sz(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* tool.h: raidx info's second column and raidx bench's header. */
void raidx_tool_wrap(FILE *f, const char *text, int first, int indent, int width)
{
	int col = fprintf(f, "%*s", first, ""), start = col;

	while (*text) {
		size_t word = strcspn(text, " "), sp = strspn(text + word, " ");
		if (col > start && col + 1 + (int)word > width) {
			fprintf(f, "\n%*s", indent, "");
			col = start = indent;
		} else if (col > start) {
			fputc(' ', f);
			col++;
		}
		fwrite(text, 1, word, f);
		col += (int)word;
		text += word + sp;
	}
	fputc('\n', f);
}

/* The widths (narrow, mid, wide) of size class c where impl is the pick:
 * "" for none, "all widths", or e.g. "narrow+mid". */
static void widths_of(const struct raidx__select_report *rep, enum raidx_op op,
		      int c, const struct raidx__impl *impl, char *buf, size_t n)
{
	unsigned k = 0;
	buf[0] = '\0';
	for (int w = 0; w < RAIDX__NWIDTH; w++)
		if (rep->op[op].pick[c][w] == impl) {
			size_t u = strlen(buf);
			snprintf(buf + u, n - u, "%s%s", u ? "+" : "",
				 raidx__width_name((enum raidx__width)w));
			k++;
		}
	if (k == RAIDX__NWIDTH)
		snprintf(buf, n, "all widths");
}

/* "selected (bench): in-cache narrow+mid; large all widths", "ok", "no
 * cpu: avx512f ...", ... */
static void impl_state(const struct raidx__select_report *rep, enum raidx_op op,
		       const struct raidx__impl *impl, int supported,
		       uint32_t raw, uint32_t active, char *buf, size_t n)
{
	char names[96], sm[48], lg[48];

	if (!supported) {
		/* Not detected at all, or detected and masked. */
		uint32_t missing = impl->features & ~active;
		uint32_t absent = missing & ~raw;
		feature_names(absent ? absent : missing, names, sizeof(names));
		snprintf(buf, n, "%s: %s", absent ? "no cpu" : "disabled", names);
		return;
	}
	widths_of(rep, op, RAIDX__SMALL, impl, sm, sizeof(sm));
	widths_of(rep, op, RAIDX__LARGE, impl, lg, sizeof(lg));
	if (sm[0] || lg[0]) {
		snprintf(buf, n, "selected (%s):%s%s%s%s%s",
			 rep->op[op].source ? rep->op[op].source : rep->how,
			 sm[0] ? " in-cache " : "", sm, sm[0] && lg[0] ? ";" : "",
			 lg[0] ? " large " : "", lg);
	} else if (raidx__impl_left_out(impl)) {
		snprintf(buf, n, "ok, not chosen: 512-bit on a zmm_downclock cpu");
	} else {
		snprintf(buf, n, "%s", impl->flags & RAIDX__F_NT ?
			 "ok, large calls only" : "ok");
	}
}

int raidx_tool_info(int argc, char **argv)
{
	static struct info_row rows[MAX_ROWS];
	static struct raidx__select_report rep;
	unsigned nrows = 0;
	int have_extra = 0;
	char buf[256];
	uint32_t raw, active;
	const char *disable = getenv("RAIDX_DISABLE");

	if (argc > 1) {
		int help = !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help");
		if (!help)
			fprintf(stderr, "raidx info: unknown argument '%s'\n",
				argv[1]);
		fprintf(help ? stdout : stderr, "usage: raidx info\n");
		return help ? 0 : 2;
	}

	raidx_init();
	raidx__select_report(&rep);
	raw = raidx__cpu_detect();
	active = raidx_cpu_features();

	printf("raidx %s (header %s), %s\n", raidx_version(),
	       RAIDX_VERSION_STRING, ARCH_NAME);
	raidx__cpu_ident(buf, sizeof(buf));
	printf("cpu             %s\n", buf);
	feature_names(active, buf, sizeof(buf));
	printf("cpu features    %s\n", buf);
	if (disable) {
		feature_names(raw & ~active, buf, sizeof(buf));
		printf("RAIDX_DISABLE   \"%s\": masks %s\n", disable,
		       strcmp(buf, "-") ? buf : "nothing this CPU has");
	}
	printf("selection       %s, %.2f ms\n", rep.how ? rep.how : "?",
	       rep.calib_ms);
	format_bytes(rep.large_bytes, buf, sizeof(buf));
	printf("large calls     stream more than %s (the L2, or half the LLC if less);\n",
	       buf);
	for (unsigned i = 0; i < rep.nbound; i++) {
		char calls[128], line[448];
		raidx__bound_calls(&rep.bound[i], calls, sizeof(calls));
		format_bytes(rep.bound[i].bytes, buf, sizeof(buf));
		snprintf(line, sizeof(line), "%s: more than %s (%s)", calls, buf,
			 rep.bound[i].why);
		raidx_tool_wrap(stdout, line, 16, 16, 72); /* the second column */
	}
	if (rep.race_bytes) {
		const struct raidx__impl *cl[RAIDX__RACE_MAX];
		format_bytes(rep.race_bytes, buf, sizeof(buf));
		printf("race            calls that stream more than %s (the LLC and an\n"
		       "                eighth) time themselves and run, per call shape, the\n"
		       "                candidate fastest lately (src/race.c; RAIDX_RACE=0:\n"
		       "                off); candidates per op:", buf);
		for (int op = 0; op < RAIDX_OP_COUNT; op++)
			printf("%s %s %u%s", op == RAIDX_OP_XOR_SYNDROME ? "\n               " : "",
			       raidx_op_name((enum raidx_op)op),
			       raidx__race_candidates((enum raidx_op)op, cl, RAIDX__RACE_MAX),
			       op + 1 < RAIDX_OP_COUNT ? "," : "\n");
	} else {
		printf("race            off (RAIDX_SELECT=static or RAIDX_RACE=0)\n");
	}
	format_bytes(raidx__l1d_bytes(), buf, sizeof(buf));
#if defined(__x86_64__) || defined(__i386__)
	printf("L1 data cache   %s: the 512-bit x4 kernels run a shorter step on\n"
	       "                stripes that do not fit (simd_avx512.h)\n", buf);
	if (raidx__crowd_over() < RAIDX_MAX_DISKS) {
		char sh[32], wide[32];
		format_bytes(RAIDX__XSYN_X4_SHORT_LEN, sh, sizeof(sh));
		format_bytes(RAIDX__X4_WIDE_MAX_LEN, wide, sizeof(wide));
		printf("                but the GFNI ones keep theirs on crowded stripes\n"
		       "                (gen_syndrome: more than %u data blocks in one L1\n"
		       "                set, as page-aligned blocks are; xor_syndrome:\n"
		       "                windows of more than %u, or of more than %u on\n"
		       "                blocks of %s or less) and on %u blocks or more\n"
		       "                under %s (simd_avx512_gfni.h)\n",
		       raidx__crowd_over(), RAIDX__XSYN_X4_CROWD_OVER,
		       RAIDX__XSYN_X4_CROWD_SHORT_OVER, sh, RAIDX__X4_WIDE_MIN, wide);
	}
#else
	printf("L1 data cache   %s\n", buf);
#endif
	printf("widths          data blocks a call reads: narrow 1-4, mid 5-10, wide 11+\n");
	printf("\npicks per op and width: the in-cache pick, its slowest calibration\n"
	       "shape relative to the fastest candidate on that shape (1.00 = fastest\n"
	       "on all), the runner-up with the same measure, and the large-call pick\n"
	       "where it differs\n");
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (int w = 0; w < RAIDX__NWIDTH; w++) {
			const struct raidx__impl *p = rep.op[op].pick[RAIDX__SMALL][w];
			const struct raidx__impl *l = rep.op[op].pick[RAIDX__LARGE][w];
			const struct raidx__impl *ru = rep.op[op].runner[w];
			printf("  %-13s %-7s %-14s", raidx_op_name(op),
			       raidx__width_name((enum raidx__width)w), p->name);
			/* The scores belong to the calibration's pick; a
			 * forced kernel is not scored as if it were that. */
			const struct raidx__impl *cp = rep.op[op].calib[w];
			if (rep.op[op].ncand && cp && cp != p) {
				printf("  calibration picked %s", cp->name);
				if (rep.op[op].worst[w] > 0)
					printf(" %.2f", 1 / rep.op[op].worst[w]);
			} else {
				if (rep.op[op].ncand && rep.op[op].worst[w] > 0)
					printf(" %.2f", 1 / rep.op[op].worst[w]);
				if (rep.op[op].ncand && ru)
					printf("  next %-12s %.2f", ru->name,
					       1 / rep.op[op].runner_worst[w]);
				/* no scores: screening left one kernel, or no
				 * calibration (static order, tuning file) */
				if (!rep.op[op].ncand && rep.op[op].source)
					printf(" (%s)", rep.op[op].source);
			}
			if (l != p)
				printf("  large: %s", l->name);
			printf("\n");
		}

	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		const struct raidx__impl *const *list;
		unsigned n = raidx__impl_list(op, &list);

		for (unsigned i = 0; i < n && nrows < MAX_ROWS; i++) {
			const struct raidx__impl *impl = list[i];
			struct info_row *r = &rows[nrows++];

			r->op = raidx_op_name(op);
			r->impl = impl->name;
			r->granule = impl->granule;
			feature_names(impl->features, r->requires,
				      sizeof(r->requires));
			if (info_extra(&rep, op, impl, r->extra, sizeof(r->extra)))
				have_extra = 1;
			else
				r->extra[0] = '\0';
			impl_state(&rep, op, impl,
				   raidx_impl_supported(op, i) == 1, raw, active,
				   r->state, sizeof(r->state));
		}
	}

	size_t wop = strlen("op"), wimpl = strlen("impl");
	size_t wreq = strlen("requires"), wext = strlen(INFO_EXTRA_TITLE);
	for (unsigned i = 0; i < nrows; i++) {
		wop = max_sz(wop, strlen(rows[i].op));
		wimpl = max_sz(wimpl, strlen(rows[i].impl));
		wreq = max_sz(wreq, strlen(rows[i].requires));
		wext = max_sz(wext, strlen(rows[i].extra));
	}

	printf("\n%-*s  %-*s  %7s  %-*s  ", (int)wop, "op", (int)wimpl, "impl",
	       "granule", (int)wreq, "requires");
	if (have_extra)
		printf("%*s  ", (int)wext, INFO_EXTRA_TITLE);
	printf("state\n");
	for (unsigned i = 0; i < nrows; i++) {
		const struct info_row *r = &rows[i];

		/* A blank line between operations keeps the table readable. */
		if (i && strcmp(rows[i - 1].op, r->op))
			printf("\n");
		printf("%-*s  %-*s  %7u  %-*s  ", (int)wop, r->op, (int)wimpl,
		       r->impl, r->granule, (int)wreq, r->requires);
		if (have_extra)
			printf("%*s  ", (int)wext, r->extra);
		printf("%s\n", r->state);
	}
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: raidx <command> [options]\n"
		"\n"
		"RAID-5/6 parity (XOR, P/Q syndromes, two-failure recovery),\n"
		"byte-compatible with Linux md RAID-6.\n"
		"\n"
		"commands:\n"
		"  info       version, CPU features, every implementation of every\n"
		"             operation and the one in use\n"
		"  selftest   check every implementation this CPU can run against\n"
		"             independently computed results\n"
		"  bench      measure the implementations (raidx bench --help)\n"
		"  tune       calibrate the choice per operation, width and size\n"
		"             class,"
		" optionally save it (raidx tune --help)\n"
		"  version    print the version\n"
		"  help       this text\n"
		"\n"
		"environment:\n"
		"  RAIDX_DISABLE=feature,...  hide CPU features from the library\n"
		"             (sse2 ssse3 avx avx2 avx512 avx512f avx512bw avx512vl\n"
		"             avx512dq avx512vbmi gfni neon sha3 zmm_downclock, or all)\n"
		"  RAIDX_SELECT=bench|static  calibrate at start-up (default) or\n"
		"             take the static priority order\n"
		"  RAIDX_IMPL=op=name,...     force implementations\n"
		"  RAIDX_TUNING=FILE          load the picks saved by raidx tune\n"
		"  RAIDX_RACE=0|1             calls from memory race their kernels\n"
		"             (default 1; src/race.c)\n");
}

/* Subcommands whose files are not in this build (tools/CMakeLists.txt
 * defines RAIDX_TOOL_HAVE_<NAME> for each one present) say so. */
#ifndef RAIDX_TOOL_HAVE_BENCH
int raidx_tool_bench(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bench: not built\n");
	return 1;
}
#endif
#ifndef RAIDX_TOOL_HAVE_TUNE
int raidx_tool_tune(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "tune: not built\n");
	return 1;
}
#endif

static int run(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;

	if (!cmd) {
		usage(stderr);
		return 2;
	}
	if (argc > 2 && (!strcmp(cmd, "help") || !strcmp(cmd, "--help") ||
			 !strcmp(cmd, "-h") || !strcmp(cmd, "version") ||
			 !strcmp(cmd, "--version"))) {
		fprintf(stderr, "raidx: '%s' takes no arguments\n", cmd);
		return 2;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		printf("raidx %s\n", raidx_version());
		return 0;
	}
	if (!strcmp(cmd, "info"))
		return raidx_tool_info(argc - 1, argv + 1);
	if (!strcmp(cmd, "selftest"))
		return raidx_tool_selftest(argc - 1, argv + 1);
	if (!strcmp(cmd, "bench"))
		return raidx_tool_bench(argc - 1, argv + 1);
	if (!strcmp(cmd, "tune"))
		return raidx_tool_tune(argc - 1, argv + 1);

	fprintf(stderr, "raidx: unknown command '%s'\n\n", cmd);
	usage(stderr);
	return 2;
}

int main(int argc, char **argv)
{
	int rc = run(argc, argv);

	/* A full disk or a closed pipe must not pass for a clean report. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "raidx: error writing the output\n");
		return rc ? rc : 1;
	}
	return rc;
}
