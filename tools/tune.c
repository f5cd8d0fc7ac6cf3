/*
 * raidx tune - run the selection, show and save its picks, and prove that it
 * is fast and stable across process starts.
 *
 *   raidx tune                 calibrate (in-cache and large classes), print
 *   raidx tune --save FILE     ... and write FILE for RAIDX_TUNING=FILE
 *   raidx tune --repeat N      start N fresh processes, each calibrating once;
 *                              report the median calibration time and how
 *                              often the picks differed
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "raidx_impl.h"
#include "tool.h"

static void print_picks(const struct raidx__select_report *r, int large)
{
	printf("selection: %s, %.3f ms; large class above %zu bytes per call", r->how,
	       r->calib_ms, r->large_bytes);
	for (unsigned i = 0; i < r->nbound; i++) {
		char calls[128];
		raidx__bound_calls(&r->bound[i], calls, sizeof(calls));
		printf("%s%s: %zu", i ? "; " : " (", calls, r->bound[i].bytes);
	}
	printf("%s\n", r->nbound ? ")" : "");
	printf("  %-13s %-14s %-14s %-14s\n", "op", "narrow (1-4)", "mid (5-10)",
	       "wide (11+)");
	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		printf("  %-13s", raidx_op_name(op));
		for (int w = 0; w < RAIDX__NWIDTH; w++)
			printf(" %-14s", r->op[op].pick[RAIDX__SMALL][w]->name);
		printf(" (%s)\n", r->op[op].source ? r->op[op].source : "");
		if (large) {
			printf("  %-13s", "  large");
			for (int w = 0; w < RAIDX__NWIDTH; w++)
				printf(" %-14s", r->op[op].pick[RAIDX__LARGE][w]->name);
			printf("\n");
		}
	}
}

/* One line for --repeat: "<ms> <pick> <pick> ..." */
static int once(void)
{
	struct raidx__select_report r;

	raidx__select_report(&r);
	printf("%.4f", r.calib_ms);
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (int w = 0; w < RAIDX__NWIDTH; w++)
			printf(" %s", r.op[op].pick[RAIDX__SMALL][w]->name);
	printf("\n");
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* At 3-5 ms a start, 10000 starts take about a minute. */
#define REPEAT_MAX 10000

static int repeat(int n)
{
	char self[4096];
	double *ms = calloc((size_t)n, sizeof(double));
	char(*picks)[512] = calloc((size_t)n, sizeof(*picks));
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (!ms || !picks || sl <= 0) {
		fprintf(stderr, "raidx tune: cannot run itself again\n");
		return 1;
	}
	self[sl] = 0;
	for (int i = 0; i < n; i++) {
		int fd[2];
		if (pipe(fd)) {
			perror("raidx tune: pipe");
			return 1;
		}
		pid_t pid = fork();
		if (pid < 0) {
			perror("raidx tune: fork");
			return 1;
		}
		if (pid == 0) {
			dup2(fd[1], 1);
			close(fd[0]);
			execl(self, self, "tune", "--once", (char *)NULL);
			_exit(127);
		}
		close(fd[1]);
		FILE *f = fdopen(fd[0], "r");
		char line[600] = "";
		if (!f || !fgets(line, sizeof(line), f)) {
			fprintf(stderr, "raidx tune: child %d printed nothing\n", i);
			return 1;
		}
		fclose(f);
		int status;
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "raidx tune: child %d failed\n", i);
			return 1;
		}
		char *sp = strchr(line, ' ');
		ms[i] = strtod(line, NULL);
		snprintf(picks[i], sizeof(picks[i]), "%s", sp ? sp + 1 : "");
		picks[i][strcspn(picks[i], "\n")] = 0;
	}

	/* Distinct pick sets, most frequent first. */
	int *count = calloc((size_t)n, sizeof(int)), distinct = 0, top = 0;
	for (int i = 0; i < n; i++) {
		int j = 0;
		while (j < i && strcmp(picks[j], picks[i]))
			j++;
		if (j == i)
			distinct++;
		count[j]++;
	}
	for (int i = 0; i < n; i++)
		if (count[i] > count[top])
			top = i;

	printf("%d process starts, in-cache picks (narrow mid wide) for:", n);
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		printf(" %s", raidx_op_name(op));
	printf("\n");
	for (int i = 0; i < n; i++)
		if (count[i])
			printf("  %3d x  %s\n", count[i], picks[i]);
	qsort(ms, (size_t)n, sizeof(double), cmp_double);
	printf("calibration time: median %.3f ms, min %.3f ms, max %.3f ms\n",
	       n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, ms[0], ms[n - 1]);
	printf("picks: %d distinct set%s; %d of %d runs differ from the most common\n",
	       distinct, distinct == 1 ? "" : "s", n - count[top], n);

	/* Per pick (op and width): how many runs chose other than that pick's
	 * most common choice, and which choices, over all n runs. */
	{
		enum { NSLOT = RAIDX_OP_COUNT * RAIDX__NWIDTH, MAXD = 16 };
		struct {
			char name[MAXD][24];
			int count[MAXD], nd, other; /* other: past MAXD names */
		} slot[NSLOT];
		unsigned off_total = 0, slots_changed = 0;
		memset(slot, 0, sizeof(slot));
		for (int i = 0; i < n; i++) {
			char buf[512], *save = NULL, *tok;
			snprintf(buf, sizeof(buf), "%s", picks[i]);
			tok = strtok_r(buf, " ", &save);
			for (int k = 0; k < NSLOT; k++) {
				const char *nm = tok ? tok : "?";
				int d = 0;
				while (d < slot[k].nd && strcmp(slot[k].name[d], nm))
					d++;
				if (d == slot[k].nd && d < MAXD)
					snprintf(slot[k].name[slot[k].nd++], 24, "%s", nm);
				if (d < MAXD)
					slot[k].count[d]++;
				else
					slot[k].other++;
				tok = tok ? strtok_r(NULL, " ", &save) : NULL;
			}
		}
		for (int k = 0; k < NSLOT; k++) {
			int best = 0;
			for (int d = 0; d < slot[k].nd; d++)
				if (slot[k].count[d] > best)
					best = slot[k].count[d];
			off_total += (unsigned)(n - best);
			if (best == n)
				continue;
			slots_changed++;
			printf("  %s/%s:", raidx_op_name(k / RAIDX__NWIDTH),
			       raidx__width_name((enum raidx__width)(k % RAIDX__NWIDTH)));
			for (int d = 0; d < slot[k].nd; d++)
				printf(" %s %d", slot[k].name[d], slot[k].count[d]);
			if (slot[k].other)
				printf(" (others) %d", slot[k].other);
			printf("\n");
		}
		printf("per pick: %u of %d picks (%d runs x %d op/width pairs) differ from that "
		       "pair's most common choice; %u of %d pairs ever changed\n",
		       off_total, n * NSLOT, n, NSLOT, slots_changed, NSLOT);
	}
	free(ms);
	free(picks);
	free(count);
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: raidx tune [--save FILE] [--no-large] [--repeat N]\n"
		   "  Calibrate the kernel choice for each operation, width and size class.\n"
		   "  --save FILE   write the picks; RAIDX_TUNING=FILE loads them with no\n"
		   "                calibration (boot paths, short-lived processes)\n"
		   "  --no-large    skip measuring the larger-than-cache class (which\n"
		   "                streams twice the LLC per candidate)\n"
		   "  --repeat N    calibrate in N (1-10000) fresh processes; report the\n"
		   "                median calibration time and how often the picks\n"
		   "                changed (not with --save)\n"
		   "  tune always measures: RAIDX_TUNING, RAIDX_IMPL and RAIDX_SELECT are\n"
		   "  ignored here.\n");
}

int raidx_tool_tune(int argc, char **argv)
{
	const char *save = NULL;
	int large = 1, rep = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--save") && i + 1 < argc)
			save = argv[++i];
		else if (!strcmp(argv[i], "--no-large"))
			large = 0;
		else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			char *end;
			long v;
			errno = 0;
			v = strtol(argv[++i], &end, 10);
			if (errno || end == argv[i] || *end || v < 1 || v > REPEAT_MAX) {
				fprintf(stderr, "raidx tune: --repeat takes a count from 1 to %d, not '%s'\n",
					REPEAT_MAX, argv[i]);
				return 2;
			}
			rep = (int)v;
		}
		else if (!strcmp(argv[i], "--once"))
			return once();
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (rep > 0 && save) {
		fprintf(stderr, "raidx tune: --save and --repeat do not go together "
				"(--repeat calibrates in other processes)\n");
		return 2;
	}

	/* tune calibrates, here and in the --repeat children (which inherit
	 * this environment): with a tuning file, forced kernels or static
	 * selection from the environment it would print, and save, picks it
	 * never measured. */
	const char *sel = getenv("RAIDX_SELECT");
	if (getenv("RAIDX_TUNING") || getenv("RAIDX_IMPL") || (sel && strcmp(sel, "bench")))
		fprintf(stderr, "raidx tune: RAIDX_TUNING, RAIDX_IMPL and RAIDX_SELECT "
				"are ignored here: tune measures\n");
	unsetenv("RAIDX_TUNING");
	unsetenv("RAIDX_IMPL");
	setenv("RAIDX_SELECT", "bench", 1);

	if (rep > 0)
		return repeat(rep);

	struct raidx__select_report r;
	raidx__select_report(&r);
	if (large && raidx__tune_large() != 0) {
		fprintf(stderr, "raidx tune: out of memory measuring the large class\n");
		return 1;
	}
	raidx__select_report(&r);
	print_picks(&r, 1);
	if (save) {
		int e = raidx__tuning_save(save);
		if (e) {
			fprintf(stderr, "raidx tune: %s: %s\n", save, strerror(-e));
			return 1;
		}
		printf("saved to %s (use RAIDX_TUNING=%s)\n", save, save);
	}
	return 0;
}
