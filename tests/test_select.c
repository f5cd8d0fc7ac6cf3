/*
 * test_select - the one-time selection and its overrides (issue 5).
 *
 * Selection happens once per process, so every case runs in a fresh child
 * process (this program run again as `test_select child CASE`) with its own
 * environment; the parent checks what the child reports.
 *
 *   - RAIDX_IMPL forces every runnable implementation of every op, both size
 *     classes, and the forced kernel computes correct results;
 *   - bad RAIDX_IMPL / RAIDX_SELECT values are rejected with a warning and
 *     raidx_init() == -EINVAL, and the library still works;
 *   - a tuning file round-trips, an edited one is obeyed, and files from
 *     another CPU, another version, with unknown or unrunnable names, or
 *     malformed, are ignored (the library calibrates instead);
 *   - RAIDX_SELECT=static makes no measurement;
 *   - the zmm_downclock quirk: the CPU models that have it (x86), and, in the
 *     SIMDe build (test select_simde, where the emulated AVX-512 kernels
 *     can stand in for real ones), selection leaving the 512-bit kernels
 *     out on such a CPU, forcing still reaching them, RAIDX_DISABLE
 *     clearing the quirk.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "raidx_impl.h"
#include "test_util.h"

static char self[4096];

/* ---- the child: report what selection did ----------------------------- */

/* One gen_syndrome + xor_gen + recovery through the public API, checked
 * against the reference: the forced or loaded kernels must work. */
static int child_check_results(void)
{
	enum { D = 8, L = 4096 + 77 };
	void *p[D], *r[D];
	int bad = 0;

	for (int i = 0; i < D; i++) {
		p[i] = t_malloc(L);
		r[i] = t_malloc(L);
		rng_fill(&t_rng, p[i], L);
		memcpy(r[i], p[i], L);
	}
	raidx__ref_gen_syndrome(D, L, r);
	bad |= raidx_gen_syndrome(D, L, p) != 0;
	bad |= memcmp(p[D - 2], r[D - 2], L) || memcmp(p[D - 1], r[D - 1], L);
	raidx__ref_xor_syndrome(D, 2, 4, L, r);
	bad |= raidx_xor_syndrome(D, 2, 4, L, p) != 0;
	bad |= memcmp(p[D - 2], r[D - 2], L) || memcmp(p[D - 1], r[D - 1], L);
	raidx__ref_xor_gen(r[0], (const void *const *)&r[1], 3, L);
	bad |= raidx_xor_gen(p[0], (const void *const *)&p[1], 3, L) != 0;
	raidx__ref_xor_acc(r[0], (const void *const *)&r[1], 2, L);
	bad |= raidx_xor_acc(p[0], (const void *const *)&p[1], 2, L) != 0;
	bad |= memcmp(p[0], r[0], L) != 0;
	raidx__ref_gen_syndrome(D, L, r);
	raidx__ref_gen_syndrome(D, L, p);
	memset(p[1], 0xa5, L);
	memset(p[4], 0x5a, L);
	bad |= raidx_recov_2data(D, L, 1, 4, p) != 0;
	bad |= memcmp(p[1], r[1], L) || memcmp(p[4], r[4], L);
	memset(p[3], 0xa5, L);
	memset(p[D - 2], 0x5a, L);
	bad |= raidx_recov_datap(D, L, 3, p) != 0;
	bad |= memcmp(p[3], r[3], L) || memcmp(p[D - 2], r[D - 2], L);
	for (int i = 0; i < D; i++) {
		free(p[i]);
		free(r[i]);
	}
	return bad;
}

/* Prints "init=<rc> how=<how> ok=<0|1> S,S,S:L,L,L ..." per op: the
 * in-cache (S) and large (L) picks for the narrow, mid and wide widths. */
static int child(const char *what)
{
	struct raidx__select_report rep;
	int rc = raidx_init();

	raidx__select_report(&rep);
	printf("init=%d how=%s ok=%d", rc, rep.how, !child_check_results());
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (int c = 0; c < RAIDX__NCLASS; c++)
			for (int w = 0; w < RAIDX__NWIDTH; w++)
				printf("%s%s", w ? "," : c ? ":" : " ",
				       rep.op[op].pick[c][w]->name);
	/* per op: 1 when calls from memory race their kernels (race.c) */
	printf(" race=");
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		printf("%d", raidx__race_limit((enum raidx_op)op) != SIZE_MAX);
	printf("\n");
	if (!strcmp(what, "save")) {
		const char *path = getenv("TEST_SELECT_SAVE");
		if (!path || raidx__tuning_save(path) != 0)
			return 1;
	}
	return 0;
}

/* ---- the parent ------------------------------------------------------- */

struct result {
	int status;
	int init;
	char how[64];
	int ok;
	/* the picks for the narrow, mid and wide widths: "n,m,w" */
	char small[RAIDX_OP_COUNT][100], large[RAIDX_OP_COUNT][100];
	char race[RAIDX_OP_COUNT + 1]; /* "1" per op whose large calls race */
	char err[2048]; /* what the child wrote to stderr */
};

/* Run `self child what` with the environment assignments in env[] (NULL
 * terminated; "NAME=" alone unsets NAME) and parse its report. */
static void run(const char *what, const char *const *env, struct result *res)
{
	int out[2], err[2];
	char buf[4096] = "";

	memset(res, 0, sizeof(*res));
	if (pipe(out) || pipe(err)) {
		t_fail("pipe: %s", strerror(errno));
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(out[0]);
		close(err[0]);
		unsetenv("RAIDX_IMPL");
		unsetenv("RAIDX_SELECT");
		unsetenv("RAIDX_TUNING");
		unsetenv("RAIDX_RACE");
		for (; env && *env; env++) {
			char name[128];
			const char *eq = strchr(*env, '=');
			snprintf(name, sizeof(name), "%.*s", (int)(eq - *env), *env);
			if (eq[1])
				setenv(name, eq + 1, 1);
			else
				unsetenv(name);
		}
		execl(self, self, "child", what, (char *)NULL);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	FILE *f = fdopen(out[0], "r"), *g = fdopen(err[0], "r");
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	size_t n = fread(res->err, 1, sizeof(res->err) - 1, g);
	res->err[n] = 0;
	fclose(f);
	fclose(g);
	waitpid(pid, &res->status, 0);

	char *tok = strtok(buf, " \n");
	int op = 0;
	while (tok) {
		if (!strncmp(tok, "init=", 5))
			res->init = atoi(tok + 5);
		else if (!strncmp(tok, "how=", 4))
			snprintf(res->how, sizeof(res->how), "%s", tok + 4);
		else if (!strncmp(tok, "ok=", 3))
			res->ok = atoi(tok + 3);
		else if (!strncmp(tok, "race=", 5))
			snprintf(res->race, sizeof(res->race), "%s", tok + 5);
		else if (op < RAIDX_OP_COUNT) {
			char *c = strchr(tok, ':');
			if (c) {
				*c = 0;
				snprintf(res->small[op], sizeof(res->small[op]), "%s", tok);
				snprintf(res->large[op], sizeof(res->large[op]), "%s", c + 1);
				op++;
			}
		}
		tok = strtok(NULL, " \n");
	}
	if (!WIFEXITED(res->status) || WEXITSTATUS(res->status) != 0)
		t_fail("child %s exited with status 0x%x", what, res->status);
	if (op != RAIDX_OP_COUNT)
		t_fail("child %s printed no report", what);
	if (!res->ok)
		t_fail("child %s: results through the public API are wrong", what);
}

/* Every runnable implementation of every op, forced through RAIDX_IMPL. */
static void test_forced(void)
{
	const struct raidx__impl *const *list[RAIDX_OP_COUNT];
	unsigned n[RAIDX_OP_COUNT], most = 0, cases = 0;

	for (int op = 0; op < RAIDX_OP_COUNT; op++) {
		n[op] = raidx__impl_list(op, &list[op]);
		if (n[op] > most)
			most = n[op];
	}
	/* Child k forces the k-th runnable implementation of every op (ops
	 * with fewer take k modulo their count). */
	for (unsigned k = 0; k < most; k++) {
		char spec[1024] = "RAIDX_IMPL=", want[RAIDX_OP_COUNT][100];
		size_t used = strlen(spec);
		for (int op = 0; op < RAIDX_OP_COUNT; op++) {
			const struct raidx__impl *run[64];
			unsigned nr = 0;
			for (unsigned i = 0; i < n[op]; i++)
				if (raidx__impl_runnable(list[op][i]))
					run[nr++] = list[op][i];
			const struct raidx__impl *pick = run[k % nr];
			/* forced for every width and size class */
			snprintf(want[op], sizeof(want[op]), "%s,%s,%s", pick->name,
				 pick->name, pick->name);
			used += (size_t)snprintf(spec + used, sizeof(spec) - used, "%s%s=%s",
						 op ? "," : "", raidx_op_name(op), pick->name);
		}
		const char *env[] = { spec, NULL };
		struct result r;
		t_ctx("forced %s", spec);
		run("forced", env, &r);
		t_expect_int("raidx_init() with a valid RAIDX_IMPL", r.init, 0);
		for (int op = 0; op < RAIDX_OP_COUNT; op++) {
			if (strcmp(r.small[op], want[op]) || strcmp(r.large[op], want[op]))
				t_fail("%s: forced %s, got %s / %s", raidx_op_name(op), want[op],
				       r.small[op], r.large[op]);
		}
		if (r.err[0])
			t_fail("a valid RAIDX_IMPL printed a warning: %s", r.err);
		cases++;
	}
	t_log("RAIDX_IMPL: %u child processes, every runnable kernel of every op forced", cases);
}

static void test_bad_overrides(void)
{
	/* An implementation this CPU cannot run, if any is compiled in. */
	char unrunnable[128] = "";
	for (int op = 0; op < RAIDX_OP_COUNT && !unrunnable[0]; op++) {
		const struct raidx__impl *const *list;
		unsigned n = raidx__impl_list(op, &list);
		for (unsigned i = 0; i < n; i++)
			if (!raidx__impl_runnable(list[i])) {
				snprintf(unrunnable, sizeof(unrunnable), "RAIDX_IMPL=%s=%s",
					 raidx_op_name(op), list[i]->name);
				break;
			}
	}
	const char *bad[] = {
		"RAIDX_IMPL=gen_syndrome=no_such_kernel",
		"RAIDX_IMPL=no_such_op=int64x1",
		"RAIDX_IMPL=gen_syndrome",
		"RAIDX_IMPL=xor_gen=int64x1,,gen_syndrome=",
		"RAIDX_SELECT=fastest",
		unrunnable[0] ? unrunnable : NULL,
	};
	unsigned cases = 0;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!bad[i])
			continue;
		const char *env[] = { bad[i], NULL };
		struct result r;
		t_ctx("bad override %s", bad[i]);
		run("bad", env, &r);
		t_expect_int("raidx_init() with a bad override", r.init, -EINVAL);
		if (!strstr(r.err, "raidx: "))
			t_fail("no warning on stderr for %s", bad[i]);
		cases++;
	}

	/* All or nothing: a good item beside a bad one is not applied
	 * either (raidx.h: the variable is ignored). */
	const char *mixed[] = { "RAIDX_IMPL=xor_gen=int64x1,bogus", "RAIDX_SELECT=static", NULL };
	struct result r;
	t_ctx("RAIDX_IMPL with one bad item");
	run("bad", mixed, &r);
	t_expect_int("raidx_init() with one bad RAIDX_IMPL item", r.init, -EINVAL);
	if (strstr(r.small[RAIDX_OP_XOR_GEN], "int64x1"))
		t_fail("RAIDX_IMPL=xor_gen=int64x1,bogus still forced xor_gen: %s",
		       r.small[RAIDX_OP_XOR_GEN]);
	cases++;

	/* Items may be separated by spaces too, as RAIDX_DISABLE's. */
	const char *spaced[] = { "RAIDX_IMPL= xor_gen=int64x1, gen_syndrome=int64x1 ",
				 "RAIDX_SELECT=static", NULL };
	t_ctx("RAIDX_IMPL with spaces");
	run("bad", spaced, &r);
	t_expect_int("raidx_init() with a spaced RAIDX_IMPL", r.init, 0);
	if (strcmp(r.small[RAIDX_OP_XOR_GEN], "int64x1,int64x1,int64x1") ||
	    strcmp(r.small[RAIDX_OP_GEN_SYNDROME], "int64x1,int64x1,int64x1"))
		t_fail("RAIDX_IMPL with spaces: xor_gen %s, gen_syndrome %s",
		       r.small[RAIDX_OP_XOR_GEN], r.small[RAIDX_OP_GEN_SYNDROME]);
	/* A feature name RAIDX_DISABLE does not know is reported. */
	const char *dis[] = { "RAIDX_DISABLE=avx3", "RAIDX_SELECT=static", NULL };
	t_ctx("RAIDX_DISABLE with an unknown name");
	run("bad", dis, &r);
	if (!strstr(r.err, "RAIDX_DISABLE") || !strstr(r.err, "avx3"))
		t_fail("RAIDX_DISABLE=avx3 gave no warning (stderr: %s)", r.err);
	t_log("bad overrides: %u rejected with -EINVAL and a warning, library still correct", cases);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		t_fail("cannot write %s", path);
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = t_malloc(65536);
	size_t n = f ? fread(buf, 1, 65535, f) : 0;
	buf[n] = 0;
	if (f)
		fclose(f);
	return buf;
}

/* Replace the line starting with `key` in text by `line`. */
static char *edit(const char *text, const char *key, const char *line)
{
	char *out = t_malloc(strlen(text) + strlen(line) + 2);
	const char *p = strstr(text, key);
	size_t pre = p ? (size_t)(p - text) : strlen(text);
	const char *post = p ? strchr(p, '\n') : NULL;
	memcpy(out, text, pre);
	strcpy(out + pre, line);
	strcat(out, "\n");
	if (post)
		strcat(out, post + 1);
	return out;
}

static void test_tuning(void)
{
	char dir[] = "/tmp/raidx_test_select_XXXXXX", path[256], env_save[300],
	     env_tune[300];
	struct result a, b;

	if (!mkdtemp(dir)) {
		t_fail("mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/tuning", dir);
	snprintf(env_save, sizeof(env_save), "TEST_SELECT_SAVE=%s", path);
	snprintf(env_tune, sizeof(env_tune), "RAIDX_TUNING=%s", path);

	/* Round trip: the picks a calibrating process saves are the picks a
	 * process loading the file uses, with no calibration. */
	const char *e1[] = { env_save, NULL };
	t_ctx("tuning save");
	run("save", e1, &a);
	const char *e2[] = { env_tune, NULL };
	t_ctx("tuning load");
	run("load", e2, &b);
	if (strcmp(b.how, "tuning"))
		t_fail("RAIDX_TUNING=%s: selection was \"%s\", not the tuning file (%s)", path,
		       b.how, b.err);
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		if (strcmp(a.small[op], b.small[op]) || strcmp(a.large[op], b.large[op]))
			t_fail("%s: saved %s/%s, loaded %s/%s", raidx_op_name(op), a.small[op],
			       a.large[op], b.small[op], b.large[op]);

	/* An edited file is obeyed: the portable kernel, which calibration
	 * would never pick next to SIMD ones, comes back from the file. */
	char *orig = read_file(path);
	char *edited = edit(orig, "gen_syndrome small mid ", "gen_syndrome small mid int64x1");
	write_file(path, edited);
	run("load", e2, &b);
	const char *mid = strchr(b.small[RAIDX_OP_GEN_SYNDROME], ',');
	if (!mid || strncmp(mid + 1, "int64x1,", 8))
		t_fail("edited tuning file: gen_syndrome (narrow,mid,wide) is %s, not "
		       "int64x1 for mid", b.small[RAIDX_OP_GEN_SYNDROME]);
	free(edited);

	/* Files that must be ignored whole: calibration instead, a warning. */
	char long_line[600], nt_small[128] = "";
	/* 511 bytes fill the reader's 512-byte buffer; the rest would be read
	 * as a record that the file is otherwise free to hold */
	memcpy(long_line, "# ", 2);
	memset(long_line + 2, 'x', 509);
	strcpy(long_line + 511, "xor_gen small mid int64x1");
	{
		const struct raidx__impl *const *list;
		unsigned n = raidx__impl_list(RAIDX_OP_XOR_GEN, &list);
		for (unsigned i = 0; i < n && !nt_small[0]; i++)
			if ((list[i]->flags & RAIDX__F_NT) && raidx__impl_selectable(list[i]))
				snprintf(nt_small, sizeof(nt_small), "xor_gen small narrow %s",
					 list[i]->name);
	}
	struct {
		const char *what, *key, *line;
	} bad[] = {
		{ "another CPU", "cpu ", "cpu GenuineIntel family 6 model 143 stepping 8: other" },
		{ "another version", "version ", "version 0.0.1" },
		{ "an unknown kernel", "xor_gen small narrow ",
		  "xor_gen small narrow no_such_kernel" },
		{ "an unknown op", "xor_gen small narrow ", "no_such_op small narrow int64x1" },
		{ "an unknown width", "xor_gen small narrow ", "xor_gen small huge int64x1" },
		{ "a missing line", "recov_datap large wide ", "" },
		{ "the old format", "xor_gen small narrow ", "xor_gen small int64x1" },
		{ "a bad header", "raidx-tuning", "raidx-tuning 99" },
		{ "a field too many", "xor_gen small narrow ",
		  "xor_gen small narrow int64x1 int64x1" },
		/* a line longer than the reader's buffer */
		{ "an over-long line", "# ", long_line },
		{ "a non-temporal kernel for in-cache calls", "xor_gen small narrow ",
		  nt_small[0] ? nt_small : NULL },
	};
	unsigned cases = 0;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (!bad[i].line)
			continue;
		char *t = edit(orig, bad[i].key, bad[i].line);
		write_file(path, t);
		free(t);
		t_ctx("tuning file from %s", bad[i].what);
		run("load", e2, &b);
		if (!strcmp(b.how, "tuning"))
			t_fail("a tuning file with %s was used", bad[i].what);
		if (!strstr(b.err, "RAIDX_TUNING"))
			t_fail("no warning for a tuning file with %s", bad[i].what);
		t_expect_int("raidx_init() with an ignored tuning file", b.init, -EINVAL);
		cases++;
	}
	const char *e3[] = { "RAIDX_TUNING=/nonexistent/raidx-tuning", NULL };
	run("load", e3, &b);
	if (!strcmp(b.how, "tuning") || !strstr(b.err, "RAIDX_TUNING"))
		t_fail("a missing tuning file was not reported");
	t_expect_int("raidx_init() with a missing tuning file", b.init, -EINVAL);

	/* A bad RAIDX_SELECT is reported even when a good file decides. */
	write_file(path, orig);
	const char *e4[] = { env_tune, "RAIDX_SELECT=fastest", NULL };
	t_ctx("tuning file with a bad RAIDX_SELECT");
	run("load", e4, &b);
	if (strcmp(b.how, "tuning"))
		t_fail("a good tuning file beside RAIDX_SELECT=fastest was not used");
	t_expect_int("raidx_init() with a bad RAIDX_SELECT and a good file", b.init, -EINVAL);
	free(orig);
	unlink(path);
	rmdir(dir);
	t_log("tuning file: round trip, edit obeyed, %u bad files ignored with a warning",
	      cases + 1);
}

/* Which ops race their calls from memory (race.c): all of them by
 * default and with a tuning file, none under RAIDX_SELECT=static or
 * RAIDX_RACE=0, all but a forced op; a bad RAIDX_RACE is rejected. */
static void test_race_switch(void)
{
	static const struct {
		const char *env[3];
		const char *want;
		int init;
	} cases[] = {
		{ { NULL }, "111111", 0 },
		{ { "RAIDX_RACE=1", NULL }, "111111", 0 },
		{ { "RAIDX_RACE=0", NULL }, "000000", 0 },
		{ { "RAIDX_SELECT=static", NULL }, "000000", 0 },
		{ { "RAIDX_IMPL=gen_syndrome=int64x1,recov_datap=int64", NULL }, "110110", 0 },
		{ { "RAIDX_RACE=yes", NULL }, "111111", -EINVAL },
	};
	struct result r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		t_ctx("race switch: %s", cases[i].env[0] ? cases[i].env[0] : "(no variable)");
		run("race", cases[i].env, &r);
		t_expect_int("raidx_init()", r.init, cases[i].init);
		if (strcmp(r.race, cases[i].want))
			t_fail("ops racing: %s, want %s", r.race, cases[i].want);
		if (cases[i].init && !strstr(r.err, "RAIDX_RACE"))
			t_fail("no warning for a bad RAIDX_RACE (stderr: %s)", r.err);
	}
	t_log("race switch: default, RAIDX_RACE=0/1/bad, static, a forced op");
}

static void test_static(void)
{
	const char *env[] = { "RAIDX_SELECT=static", NULL };
	struct result r;

	t_ctx("RAIDX_SELECT=static");
	run("static", env, &r);
	if (strcmp(r.how, "static"))
		t_fail("RAIDX_SELECT=static: selection was %s", r.how);
	t_expect_int("raidx_init() with RAIDX_SELECT=static", r.init, 0);
	t_log("RAIDX_SELECT=static: no calibration, picks by priority");
}

/* Does any pick of any op (both classes, every width) contain `sub`? */
static int picks_contain(const struct result *r, const char *sub)
{
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		if (strstr(r->small[op], sub) || strstr(r->large[op], sub))
			return 1;
	return 0;
}

static void test_quirks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	/* The models: every one listed, and neighbours that must not be. */
	static const struct {
		const char *vendor;
		unsigned family, model;
		int quirk;
	} cpus[] = {
		{ "GenuineIntel", 6, 0x55, 1 }, /* Skylake-SP, Cascade/Cooper Lake */
		{ "GenuineIntel", 6, 0x6a, 1 }, /* Ice Lake-SP */
		{ "GenuineIntel", 6, 0x6c, 1 }, /* Ice Lake-D */
		{ "GenuineIntel", 6, 0x7d, 1 }, /* Ice Lake client */
		{ "GenuineIntel", 6, 0x7e, 1 },
		{ "GenuineIntel", 6, 0x9d, 1 }, /* Ice Lake NNP-I */
		{ "GenuineIntel", 6, 0x8c, 1 }, /* Tiger Lake */
		{ "GenuineIntel", 6, 0x8d, 1 },
		{ "GenuineIntel", 6, 0x8f, 0 }, /* Sapphire Rapids */
		{ "GenuineIntel", 6, 0xcf, 0 }, /* Emerald Rapids */
		{ "GenuineIntel", 6, 0xa7, 0 }, /* Rocket Lake */
		{ "GenuineIntel", 6, 0x56, 0 }, /* Broadwell-DE (no AVX-512) */
		{ "GenuineIntel", 6, 0x57, 0 }, /* Knights Landing */
		{ "GenuineIntel", 15, 0x55, 0 },
		{ "AuthenticAMD", 25, 0x11, 0 }, /* Zen 4 */
		{ "AuthenticAMD", 6, 0x55, 0 },
		{ "AuthenticAMD", 26, 0x02, 0 }, /* Zen 5 */
	};
	unsigned nq = 0;
	for (size_t i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		uint32_t q = raidx__x86_quirks(cpus[i].vendor, cpus[i].family, cpus[i].model);
		nq += q != 0;
		if (q != (cpus[i].quirk ? RAIDX_CPU_ZMM_DOWNCLOCK : 0u))
			t_fail("%s family %u model 0x%x: quirks 0x%x, want %s",
			       cpus[i].vendor, cpus[i].family, cpus[i].model, (unsigned)q,
			       cpus[i].quirk ? "zmm_downclock" : "none");
	}
	t_log("zmm_downclock: %u of %zu CPU models have it, as listed", nq,
	      sizeof(cpus) / sizeof(cpus[0]));

	/* Traits: the Zen 5 rules (x86/cpu_features.c) on AMD family 0x1a
	 * only; not on Zen 4, nor on the Intel Xeon where they cost. */
	enum {
		ZEN5 = RAIDX__T_GEN_L1_STREAM | RAIDX__T_XSYN_BW_BAND | RAIDX__T_X1_BEYOND_L1 |
		       RAIDX__T_CROWD_X4 | RAIDX__T_XOR_L2_YMM | RAIDX__T_GEN_L3_BW |
		       RAIDX__T_XOR_NT_MID | RAIDX__T_GEN_NT_MID
	};
	static const struct {
		const char *vendor;
		unsigned family, model;
		uint32_t traits;
	} tcpus[] = {
		{ "AuthenticAMD", 26, 0x02, ZEN5 },
		{ "AuthenticAMD", 26, 0x44, ZEN5 },
		{ "AuthenticAMD", 25, 0x11, 0 }, /* Zen 4 */
		{ "AuthenticAMD", 25, 0x01, 0 }, /* Zen 3 */
		{ "GenuineIntel", 6, 0xa7, 0 },  /* the Xeon measured */
		{ "GenuineIntel", 6, 0x8f, 0 },
		{ "GenuineIntel", 26, 0x02, 0 },
		{ "HygonGenuine", 26, 0x02, 0 },
	};
	for (size_t i = 0; i < sizeof(tcpus) / sizeof(tcpus[0]); i++) {
		uint32_t tr = raidx__x86_traits(tcpus[i].vendor, tcpus[i].family,
						tcpus[i].model);
		if (tr != tcpus[i].traits)
			t_fail("%s family %u model 0x%x: traits 0x%x, want 0x%x",
			       tcpus[i].vendor, tcpus[i].family, tcpus[i].model,
			       (unsigned)tr, (unsigned)tcpus[i].traits);
	}
	t_log("traits: %zu CPU models as listed; this CPU 0x%x",
	      sizeof(tcpus) / sizeof(tcpus[0]), (unsigned)raidx__cpu_traits());
#endif
	/* The selection, where emulated 512-bit kernels exist to leave out. */
	if (!raidx__impl_find(RAIDX_OP_GEN_SYNDROME, "avx512x4@simde")) {
		t_log("zmm_downclock selection: no SIMDe kernels in this build (select_simde runs it)");
		return;
	}
	struct result r;
	const char *e512[] = { "RAIDX_EMULATE=avx512", "RAIDX_DISABLE=",
			       "RAIDX_SELECT=static", NULL };
	const char *e512q[] = { "RAIDX_EMULATE=avx512,zmm_downclock", "RAIDX_DISABLE=",
				"RAIDX_SELECT=static", NULL };
	const char *egfq[] = { "RAIDX_EMULATE=avx512,gfni,zmm_downclock", "RAIDX_DISABLE=",
			       "RAIDX_SELECT=static", NULL };
	const char *eforce[] = { "RAIDX_EMULATE=avx512,zmm_downclock", "RAIDX_DISABLE=",
				 "RAIDX_SELECT=static",
				 "RAIDX_IMPL=gen_syndrome=avx512x4@simde", NULL };
	const char *eclear[] = { "RAIDX_EMULATE=avx512,zmm_downclock",
				 "RAIDX_DISABLE=zmm_downclock", "RAIDX_SELECT=static", NULL };

	t_ctx("zmm_downclock selection");
	/* Without the quirk the emulated AVX-512 kernels win on priority: the
	 * cases below can fail. */
	run("emu512", e512, &r);
	if (!strstr(r.small[RAIDX_OP_GEN_SYNDROME], "avx512x4@simde"))
		t_fail("RAIDX_EMULATE=avx512: gen_syndrome picks %s, want avx512x4@simde",
		       r.small[RAIDX_OP_GEN_SYNDROME]);
	run("emu512q", e512q, &r);
	if (picks_contain(&r, "avx512"))
		t_fail("zmm_downclock: a 512-bit kernel was chosen (gen_syndrome %s:%s)",
		       r.small[RAIDX_OP_GEN_SYNDROME], r.large[RAIDX_OP_GEN_SYNDROME]);
	run("emugfq", egfq, &r);
	if (picks_contain(&r, "avx512") ||
	    strncmp(r.small[RAIDX_OP_GEN_SYNDROME], "gfni_avx2", 9))
		t_fail("zmm_downclock with GFNI: gen_syndrome picks %s, want gfni_avx2 (256-bit)",
		       r.small[RAIDX_OP_GEN_SYNDROME]);
	run("emuforce", eforce, &r);
	if (strcmp(r.small[RAIDX_OP_GEN_SYNDROME],
		   "avx512x4@simde,avx512x4@simde,avx512x4@simde"))
		t_fail("zmm_downclock: RAIDX_IMPL=gen_syndrome=avx512x4@simde gave %s",
		       r.small[RAIDX_OP_GEN_SYNDROME]);
	run("emuclear", eclear, &r);
	if (!strstr(r.small[RAIDX_OP_GEN_SYNDROME], "avx512x4@simde"))
		t_fail("RAIDX_DISABLE=zmm_downclock: gen_syndrome picks %s, want avx512x4@simde",
		       r.small[RAIDX_OP_GEN_SYNDROME]);
	t_log("zmm_downclock selection: 512-bit kernels left out (GFNI on AVX2 instead where "
	      "emulated), still forced by RAIDX_IMPL, back with RAIDX_DISABLE=zmm_downclock");
}

/*
 * The pick of one width from made-up relative times (raidx__pick_width):
 * candidates sse2 (priority 10), avx2 (20), avx512 (30); shapes 0 and 1 of
 * the width, shape 2 of another.
 */
static int pick_of(const double rel[3][3], const double relm[3][3], const int pruned[3])
{
	static const int prio[3] = { 10, 20, 30 };
	static const unsigned char inw[3] = { 1, 1, 0 };
	struct raidx__pick_in in = { 3, 3, 3, &rel[0][0], &relm[0][0], pruned, prio, inw };

	return raidx__pick_width(&in).pick;
}

static void test_pick_rule(void)
{
	static const int none[3] = { 0, 0, 0 };
	/* avx512 fastest on both shapes by its fastest trials, but bursts
	 * slowed it in most rounds of shape 1 (paired 1.30): the tie by the
	 * second measure keeps it */
	static const double burst[3][3] = { { 2.0, 2.0, 1 }, { 1.25, 1.0, 1 }, { 1.0, 1.30, 1 } };
	static const double clean[3][3] = { { 2.0, 2.0, 1 }, { 1.30, 1.25, 1 }, { 1.0, 1.0, 1 } };
	/* avx2 really ahead on shape 1: both measures say so */
	static const double lead[3][3] = { { 2.0, 2.0, 1 }, { 1.02, 1.0, 1 }, { 1.0, 1.12, 1 } };
	/* within 5% on every shape by one measure: the static preference */
	static const double near[3][3] = { { 2.0, 2.0, 1 }, { 1.0, 1.0, 1 }, { 1.04, 1.03, 1 } };
	/* shape 2, of another width, does not count */
	static const double other[3][3] = { { 2.0, 2.0, 1 }, { 1.3, 1.3, 1 }, { 1.0, 1.0, 9 } };
	static const int pruned512[3] = { 0, 0, 1 };
	struct {
		const char *what;
		const double (*rel)[3], (*relm)[3];
		const int *pruned;
		int want;
	} cases[] = {
		{ "bursts on avx512, fastest trials level", burst, clean, none, 2 },
		{ "bursts by both measures", burst, burst, none, 1 },
		{ "avx2 ahead by both measures", lead, lead, none, 1 },
		{ "avx2 ahead paired, avx512 level by fastest trials", lead, clean, none, 2 },
		{ "within the margin", near, near, none, 2 },
		{ "another width's shape", other, other, none, 2 },
		{ "avx512 pruned", clean, clean, pruned512, 1 },
	};
	t_ctx("pick rule");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int got = pick_of(cases[i].rel, cases[i].relm, cases[i].pruned);
		if (got != cases[i].want)
			t_fail("%s: picked candidate %d, want %d", cases[i].what, got,
			       cases[i].want);
	}
	t_log("pick rule: %zu made-up cases (either measure ties, priority decides)",
	      sizeof(cases) / sizeof(cases[0]));
}

/* Screening from made-up trial times (raidx__screen_keep): the slow
 * portable kernels go, a kernel the static order prefers to the fastest
 * stays whatever its trials read. */
static void test_screen_rule(void)
{
	/* int64x4, sse2, avx2, avx512 (priorities rising) */
	static const int prio[4] = { 10, 20, 40, 50 };
	static const struct {
		const char *what;
		double t[4];
		unsigned char want[4];
	} cases[] = {
		{ "all level", { 100, 100, 100, 100 }, { 1, 1, 1, 1 } },
		{ "portable and sse2 over 2x behind", { 400, 210, 130, 100 }, { 0, 0, 1, 1 } },
		{ "exactly 2x behind stays", { 401, 200, 130, 100 }, { 0, 1, 1, 1 } },
		{ "preferred read slow: kept", { 400, 300, 100, 250 }, { 0, 0, 1, 1 } },
		{ "preferred fastest", { 300, 250, 120, 100 }, { 0, 0, 1, 1 } },
	};
	t_ctx("screen rule");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned char keep[4];
		unsigned n = raidx__screen_keep(cases[i].t, prio, 4, keep), want = 0;
		for (unsigned c = 0; c < 4; c++) {
			want += cases[i].want[c];
			if (keep[c] != cases[i].want[c])
				t_fail("%s: candidate %u kept %d, want %d", cases[i].what, c,
				       keep[c], cases[i].want[c]);
		}
		if (n != want)
			t_fail("%s: %u kept, want %u", cases[i].what, n, want);
	}
	t_log("screen rule: %zu made-up cases", sizeof(cases) / sizeof(cases[0]));
}

/* The size classes' bounds (raidx__class_of): the L2 for most calls, and
 * for gen_syndrome of 15 or more data blocks the L1 and a sixteenth, where
 * the streaming twins win (select.c, GEN_STREAM_MIN_BLOCKS); 14 data
 * blocks and xor_syndrome windows keep the L2's bound; xor_gen of 5-9
 * sources half the L2 (set_bounds), gen_syndrome of 8-14 data blocks
 * three quarters of it (GEN_NT_MID_MIN_BLOCKS), on the CPUs with those
 * traits; the recoveries are large only beyond the LLC and an eighth
 * (REC_LARGE_LLC_EIGHTHS).
 *
 * want_bound: the bound a call of op reading n blocks should have, worked
 * out here from the caches and traits as select.c's comments state the
 * rules. */
static size_t want_bound(enum raidx_op op, unsigned n, size_t big)
{
	size_t l1 = raidx__l1d_bytes(), llc = raidx__llc_bytes();
	unsigned tr = raidx__cpu_traits();

	switch (op) {
	case RAIDX_OP_XOR_GEN:
		if (n == 1)
			return llc / 2; /* a copy */
		if (n >= 5 && n <= 9 && (tr & RAIDX__T_XOR_NT_MID))
			return big / 2;
		return big;
	case RAIDX_OP_GEN_SYNDROME:
		if (n >= 15 && (tr & RAIDX__T_GEN_L1_STREAM) && l1 + l1 / 16 < big)
			return l1 + l1 / 16;
		if (n >= 8 && n <= 14 && (tr & RAIDX__T_GEN_NT_MID))
			return big / 4 * 3;
		return big;
	case RAIDX_OP_RECOV_2DATA:
	case RAIDX_OP_RECOV_DATAP:
		return llc / 8 * 9;
	default:
		return big; /* xor_acc, xor_syndrome windows */
	}
}

static void test_classes(void)
{
	struct raidx__select_report rep;
	enum raidx_op G = RAIDX_OP_GEN_SYNDROME, XG = RAIDX_OP_XOR_GEN;
	unsigned checked = 0;

	t_ctx("size classes");
	raidx__select_report(&rep);
	size_t big = rep.large_bytes, llc = raidx__llc_bytes();
	if (!big || big > llc / 2)
		t_fail("general bound %zu: want the L2, at most half the LLC (%zu)", big, llc / 2);
	/* Every op and block count up to past the lookup's last entry: the
	 * call's class changes one byte past its bound, nowhere else. */
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (unsigned n = 1; n <= 40; n++) {
			size_t b = want_bound(op, n, big);
			checked++;
			if (raidx__class_of(op, n, b) != RAIDX__SMALL ||
			    raidx__class_of(op, n, b + 1) != RAIDX__LARGE)
				t_fail("%s of %u blocks: large not from %zu bytes", raidx_op_name(op),
				       n, b + 1);
		}
	/* The report's list (raidx info, raidx tune, tuning files) names
	 * every call whose bound is not the general one, and only those. */
	for (int op = 0; op < RAIDX_OP_COUNT; op++)
		for (unsigned n = 1; n <= 40; n++) {
			size_t b = want_bound(op, n, big);
			unsigned hits = 0;
			for (unsigned i = 0; i < rep.nbound; i++) {
				const struct raidx__bound *e = &rep.bound[i];
				if (!(e->ops >> op & 1) || n < e->min_blocks ||
				    (e->max_blocks && n > e->max_blocks))
					continue;
				hits++;
				if (e->bytes != b)
					t_fail("%s of %u blocks: reported bound %zu, want %zu",
					       raidx_op_name(op), n, e->bytes, b);
			}
			if (hits > 1 || (!hits && b != big))
				t_fail("%s of %u blocks: in %u of the reported bounds",
				       raidx_op_name(op), n, hits);
		}
	char calls[128];
	for (unsigned i = 0; i < rep.nbound; i++)
		if (raidx__bound_calls(&rep.bound[i], calls, sizeof(calls)) <= 0 ||
		    !strstr(calls, raidx_op_name(__builtin_ctz(rep.bound[i].ops))))
			t_fail("bound %u: described as \"%s\"", i, calls);
	/* A public call just past a bound runs the large pick: xor_gen of 8
	 * sources (mid width) and gen_syndrome 16+2 (wide). */
	size_t xm = want_bound(XG, 8, big), xl = xm / 9 + 64;
	if (xl * 9 <= big &&
	    raidx__impl_for(XG, 8, 0, 0, xl) != rep.op[XG].pick[RAIDX__LARGE][RAIDX__W_MID])
		t_fail("xor_gen of 8 sources at %zu bytes: not the large mid pick", xl);
	size_t g = want_bound(G, 16, big), len = g / 18 + 64;
	if (len * 18 > g && len * 18 <= big &&
	    raidx__impl_for(G, 18, 0, 0, len) != rep.op[G].pick[RAIDX__LARGE][RAIDX__W_WIDE])
		t_fail("gen_syndrome 16+2 at %zu bytes: not the large wide pick", len);
	t_log("size classes: %u op and block counts; large from %zu bytes, %u bounds of "
	      "their own (traits 0x%x)", checked, big + 1, rep.nbound,
	      (unsigned)raidx__cpu_traits());
	for (unsigned i = 0; i < rep.nbound; i++) {
		raidx__bound_calls(&rep.bound[i], calls, sizeof(calls));
		t_log("  %s: from %zu (%s)", calls, rep.bound[i].bytes + 1, rep.bound[i].why);
	}
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "child")) {
		/* No t_init(): the child's stdout is its report alone. */
		rng_seed(&t_rng, 1);
		return child(argv[2]);
	}
	t_init(argc, argv, "select");
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		t_fail("readlink /proc/self/exe");
		return t_done();
	}
	self[n] = 0;
	test_forced();
	test_bad_overrides();
	test_tuning();
	test_static();
	test_race_switch();
	test_quirks();
	test_pick_rule();
	test_screen_rule();
	test_classes();
	return t_done();
}
