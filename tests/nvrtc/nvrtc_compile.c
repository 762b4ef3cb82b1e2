/* tests/nvrtc/nvrtc_compile.c -- compile CUDA source text with NVRTC, the run-time compiler that
 * CuPy's RawModule and similar tools use (no host headers, no host code).
 *
 *   nvrtc_compile [-o OPTION]... TEXT
 *   nvrtc_compile [-o OPTION]... [-t TAG] -f CASES
 *
 * TEXT is the source (e.g. "#include <ssam/conv.cuh>\nSSAM_CONV2D_DEFINE(g, float, 5, 5, ssam_conv_policy<4, 128>)\n");
 * each -o OPTION is passed to nvrtcCompileProgram (e.g. -o -Iinclude -o --std=c++17 -o -arch=compute_90).
 * Exit status 0 when it compiles without a warning, 1 otherwise (the log is printed), 2 on bad use.
 *
 * With -f, CASES is a file ("-" for standard input) of many sources, each starting with a line
 *   == NAME
 * and running to the next such line.  A source line
 *   //@ kernel EXPR
 * also asks NVRTC for the kernel EXPR (a name expression, as CuPy's name_expressions: the kernel
 * must exist and get a lowered name).  Every case prints "ok nvrtc ARCH: NAME (S s)" or "FAIL nvrtc
 * ARCH: NAME" and the first lines of its log (ARCH: the -arch option's value, or TAG); the last line is
 * "nvrtc ARCH: N ok, N failed, S s" (S: CPU seconds).  Exit status 1 when any case failed. */
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_OPTS 64
#define MAX_KERNELS 16
#define LOG_LINES 15

/* compile one source; 0 when it compiles without a word in the log and every kernel expression of
 * kern (nk of them) has a lowered name; the log (or why not) in *log_out (malloc'ed) */
static int compile_one(const char *text, const char *name, int nopt, const char **opts, int nk, char **kern,
                       char **log_out)
{
    nvrtcProgram prog;
    nvrtcResult rc;
    size_t n = 0, extra = 0;
    char *log;
    int i, bad = 0, unasked = 0;
    *log_out = NULL;
    if (nvrtcCreateProgram(&prog, text, name, 0, NULL, NULL) != NVRTC_SUCCESS) return 2;
    for (i = 0; i < nk; i++)
        if (nvrtcAddNameExpression(prog, kern[i]) != NVRTC_SUCCESS) unasked = bad = 1;
    rc = nvrtcCompileProgram(prog, nopt, opts);
    if (nvrtcGetProgramLogSize(prog, &n) != NVRTC_SUCCESS) n = 0;
    for (i = 0; i < nk; i++) extra += strlen(kern[i]) + 64;
    extra += 64;
    log = (char *)malloc(n + extra + 1);
    if (!log) {
        nvrtcDestroyProgram(&prog);
        return 2;
    }
    log[0] = 0;
    if (n) nvrtcGetProgramLog(prog, log);
    log[n] = 0;
    /* a warning counts as a failure: the log holds text only when something was reported */
    if (rc != NVRTC_SUCCESS || strlen(log) > 1) bad = 1;
    if (unasked) strcat(log, "nvrtcAddNameExpression refused a kernel name\n");
    if (rc == NVRTC_SUCCESS && !unasked)
        for (i = 0; i < nk; i++) {
            const char *lowered = NULL;
            if (nvrtcGetLoweredName(prog, kern[i], &lowered) != NVRTC_SUCCESS || !lowered) {
                sprintf(log + strlen(log), "no kernel %s in the program\n", kern[i]);
                bad = 1;
            }
        }
    if (bad && rc != NVRTC_SUCCESS) {
        const char *e = nvrtcGetErrorString(rc);
        char *l2 = (char *)malloc(strlen(log) + strlen(e) + 2);
        if (l2) {
            sprintf(l2, "%s\n%s", e, log);
            free(log);
            log = l2;
        }
    }
    nvrtcDestroyProgram(&prog);
    *log_out = log;
    return bad;
}

/* the first LOG_LINES lines of log, indented */
static void print_log(const char *log)
{
    int lines = 0;
    const char *p = log;
    while (*p && lines < LOG_LINES) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len) {
            printf("    %.*s\n", (int)len, p);
            lines++;
        }
        p += len + (e ? 1 : 0);
    }
}

/* the whole of file f (NULL when it cannot be read) */
static char *read_all(FILE *f)
{
    size_t cap = 1 << 16, len = 0, got;
    char *buf = (char *)malloc(cap + 1);
    if (!buf) return NULL;
    while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            char *nb = (char *)realloc(buf, 2 * cap + 1);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
    }
    buf[len] = 0;
    return buf;
}

/* -f: every case of the file; 0 when all compiled */
static int run_cases(const char *path, const char *tag, int nopt, const char **opts)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
    char *all, *p;
    const char *arch = "?";
    int ok = 0, failed = 0, i;
    clock_t t0 = clock(), t1;
    if (!f) {
        fprintf(stderr, "nvrtc_compile: cannot open %s\n", path);
        return 2;
    }
    all = read_all(f);
    if (f != stdin) fclose(f);
    if (!all) return 2;
    for (i = 0; i < nopt; i++)
        if (!strncmp(opts[i], "-arch=", 6)) arch = opts[i] + 6;
        else if (!strncmp(opts[i], "--gpu-architecture=", 19)) arch = opts[i] + 19;
    if (tag) arch = tag;
    p = strstr(all, "== ");
    while (p) {
        char *name = p + 3, *src, *next, *q, *kern[MAX_KERNELS], *log = NULL;
        size_t len;
        int nk = 0, rc;
        q = strchr(name, '\n');
        if (!q) break;
        *q++ = 0;
        next = strstr(q, "\n== "); /* the source: up to and with the newline before the next case */
        len = next ? (size_t)(next - q) + 1 : strlen(q);
        src = (char *)malloc(len + 1);
        if (!src) break;
        memcpy(src, q, len);
        src[len] = 0;
        if (next) next++;
        /* the kernels it must define: "//@ kernel EXPR" lines (the text stays in the source) */
        for (q = strstr(src, "//@ kernel "); q && nk < MAX_KERNELS; q = strstr(q, "//@ kernel ")) {
            char *e;
            q += 11;
            e = strchr(q, '\n');
            kern[nk] = (char *)malloc(e ? (size_t)(e - q) + 1 : strlen(q) + 1);
            if (!kern[nk]) break;
            memcpy(kern[nk], q, e ? (size_t)(e - q) : strlen(q));
            kern[nk][e ? (size_t)(e - q) : strlen(q)] = 0;
            nk++;
        }
        t1 = clock();
        rc = compile_one(src, "nvrtc_check.cu", nopt, opts, nk, kern, &log);
        if (rc == 0) {
            printf("ok nvrtc %s: %s (%.1f s)\n", arch, name, (double)(clock() - t1) / CLOCKS_PER_SEC);
            ok++;
        } else {
            printf("FAIL nvrtc %s: %s\n", arch, name);
            if (log) print_log(log);
            failed++;
        }
        fflush(stdout);
        free(log);
        free(src);
        for (i = 0; i < nk; i++) free(kern[i]);
        p = next;
    }
    printf("nvrtc %s: %d ok, %d failed, %.1f s\n", arch, ok, failed, (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(all);
    return failed ? 1 : ok ? 0 : 2;
}

int main(int argc, char **argv)
{
    const char *opts[MAX_OPTS];
    int nopt = 0, i, rc;
    const char *text = NULL, *cases = NULL, *tag = NULL;
    char *log = NULL;
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc && nopt < MAX_OPTS) opts[nopt++] = argv[++i];
        else if (!strcmp(argv[i], "-f") && i + 1 < argc && !cases) cases = argv[++i];
        else if (!strcmp(argv[i], "-t") && i + 1 < argc && !tag) tag = argv[++i];
        else if (!text && !cases) text = argv[i];
        else {
            text = cases = NULL;
            break;
        }
    }
    if (!text == !cases) {
        fprintf(stderr, "usage: nvrtc_compile [-o OPTION]... TEXT\n"
                        "       nvrtc_compile [-o OPTION]... [-t TAG] -f CASES\n");
        return 2;
    }
    if (cases) return run_cases(cases, tag, nopt, opts);
    rc = compile_one(text, "nvrtc_check.cu", nopt, opts, 0, NULL, &log);
    if (rc == 1 && log) printf("%s", log);
    free(log);
    return rc;
}
